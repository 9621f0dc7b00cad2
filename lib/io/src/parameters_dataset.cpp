#include "parameters_dataset.hpp"

#include <algorithm>
#include <functional>
#include <mutex>
#include <set>
#include <span>
#include <string>

#include "field_datasets.hpp"
#include "psfsim/contiguous_parallel.hpp"

namespace psfsim::h5 {
namespace {

using Key = std::tuple<bool, int, int>;

Key key_of(const SeidelTerm& t) { return {false, t.l, t.m}; }
Key key_of(const ZernikeTerm& t) { return {true, t.j, -1}; }

std::string name_of(const Key& k) {
  const auto [zernike, first, second] = k;
  return zernike ? term_name(ZernikeTerm{first, 0.0}) : term_name(SeidelTerm{first, second, 0.0});
}

// Calls visit(position, key, waves) for each of the frame's terms, Seidel terms first.
template <typename Visit>
void for_each_term(const Aberration& frame, Visit&& visit) {
  std::size_t position = 0;
  for (const auto& t : frame.seidel) visit(position++, key_of(t), t.waves);
  for (const auto& t : frame.zernike) visit(position++, key_of(t), t.waves);
}

// Every term any frame uses, sorted. Frames of a batch mostly list the same terms in the same
// order, so a frame like the one before it costs a comparison, not a set insertion.
std::vector<Key> used_terms(std::span<const Aberration> frames) {
  std::set<Key> all;
  std::mutex all_mutex;
  for_contiguous_runs(frames.size(), [&](std::size_t lo, std::size_t hi) {
    std::set<Key> seen;
    std::vector<Key> previous, current;
    for (std::size_t f = lo; f < hi; ++f) {
      current.clear();
      for_each_term(frames[f], [&](std::size_t, const Key& k, double) { current.push_back(k); });
      if (current == previous) continue;
      seen.insert(current.begin(), current.end());
      std::swap(previous, current);
    }
    const std::lock_guard lock(all_mutex);
    all.merge(seen);
  });
  return {all.begin(), all.end()};
}

}  // namespace

ParameterDatasets::ParameterDatasets(hid_t root, const RunSpec& spec)
    : frames_(spec), keys_(used_terms(frames_.shapes())) {
  const Handle group(H5Gcreate2(root, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                     H5Gclose, "create /parameters");
  set_attribute(group.get(), "frames", static_cast<long long>(frames_.size()));
  const std::string unit(to_string(spec.optics.aberration_units));
  set_attribute(group.get(), "units", unit);
  set_attribute(group.get(), "description",
                std::string("one dataset per phase term, one entry per frame: Sl_m is the "
                            "Seidel term W rho^l cos^m(phi), Zj the Noll Zernike term j; "
                            "field_x and field_y place the frame in the field"));
  const hsize_t dims[1] = {frames_.size()};
  const Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create a dataspace");
  for (const Key& k : keys_) {
    const std::string name = name_of(k);
    Handle set(H5Dcreate2(group.get(), name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT),
               H5Dclose, "create /parameters/" + name);
    const auto [zernike, first, second] = k;
    set_attribute(set.get(), "kind", std::string(zernike ? "zernike" : "seidel"));
    set_attribute(set.get(), "units", unit);
    if (zernike) {
      set_attribute(set.get(), "j", static_cast<long long>(first));
    } else {
      set_attribute(set.get(), "l", static_cast<long long>(first));
      set_attribute(set.get(), "m", static_cast<long long>(second));
    }
    sets_.push_back(std::move(set));
  }
  if (has_field_points(spec))
    for (const int axis : {0, 1}) {
      const std::string name = axis == 0 ? "field_x" : "field_y";
      Handle set(H5Dcreate2(group.get(), name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                            H5P_DEFAULT, H5P_DEFAULT),
                 H5Dclose, "create /parameters/" + name);
      set_attribute(set.get(), "kind", std::string("field"));
      set_attribute(set.get(), "units", std::string("field radius"));
      field_sets_.push_back(std::move(set));
    }
  if (const RandomAberrationDraws* drawn = frames_.drawn()) {
    std::set<Key> drawn_keys;
    for (const TermId& id : drawn->ids()) {
      const Key k = key_of(ZernikeTerm{id.j, 0.0});
      drawn_keys.insert(k);
      drawn_columns_.push_back(column(k));
    }
    fixed_row_.assign(keys_.size(), 0.0);
    for_each_term(drawn->any_frame(), [&](std::size_t, const Key& k, double w) {
      if (!drawn_keys.contains(k)) fixed_row_[column(k)] += w;
    });
    // An MPI rank's block starts deep in the stream: the skip to it (the draws of every frame
    // before the block; bench/results/code-constants.md) is taken here, while the backend
    // starts, rather than in the first write, which the run waits for.
    frames_.prepare(0, 0);
  }
}

std::size_t ParameterDatasets::column(const Key& k) const {
  return static_cast<std::size_t>(std::lower_bound(keys_.begin(), keys_.end(), k) - keys_.begin());
}

void ParameterDatasets::fill_columns(std::size_t count, std::vector<double>& values) {
  const std::size_t columns = keys_.size();
  values.assign(count * columns, 0.0);
  frames_.prepare(written_, count);
  const auto at = [&](std::size_t column, std::size_t i) -> double& {
    return values[column * count + i];
  };
  std::function<void(std::size_t, std::size_t)> fill;
  if (const RandomAberrationDraws* drawn = frames_.drawn()) {
    // Drawn frames: their values straight into the columns, no frame built.
    for (std::size_t c = 0; c < columns; ++c)
      std::fill_n(values.begin() + static_cast<std::ptrdiff_t>(c * count), count, fixed_row_[c]);
    fill = [&, drawn](std::size_t lo, std::size_t hi) {
      std::vector<double> draws(drawn_columns_.size());
      for (std::size_t i = lo; i < hi; ++i) {
        drawn->values(written_ + i, draws.data());
        for (std::size_t k = 0; k < draws.size(); ++k) at(drawn_columns_[k], i) = draws[k];
      }
    };
  } else {
    // Held frames; repeated terms in a frame add up.
    fill = [&](std::size_t lo, std::size_t hi) {
      std::vector<std::pair<Key, std::size_t>> recent;  // by position: the last column found
      for (std::size_t i = lo; i < hi; ++i)
        for_each_term(frames_.frame(written_ + i),
                      [&](std::size_t position, const Key& k, double w) {
                        if (position >= recent.size())
                          recent.resize(position + 1, {Key{}, columns});
                        if (recent[position].second == columns || recent[position].first != k)
                          recent[position] = {k, column(k)};
                        at(recent[position].second, i) += w;
                      });
    };
  }
  // A few cores for a large chunk: the compute threads need the others.
  if (count >= 1024) for_contiguous_runs(count, fill, 4);
  else fill(0, count);
}

void ParameterDatasets::write_through(std::size_t last) {
  last = std::min(last, frames_.size());
  if (last <= written_) return;
  const std::size_t count = last - written_;
  std::vector<double> values;  // [column][frame]: each column contiguous for HDF5
  fill_columns(count, values);
  for (std::size_t c = 0; c < keys_.size(); ++c)
    write_rows(sets_[c].get(), written_, count, 1, values.data() + c * count,
               "/parameters/" + name_of(keys_[c]));
  if (!field_sets_.empty()) {
    // Drawn frames share their fixed terms' point: no frame is built for it.
    const bool drawn = frames_.drawn() != nullptr;
    const FieldPoint shared = frames_.shapes().front().field.value_or(FieldPoint{});
    std::vector<double> xs(count), ys(count);
    for (std::size_t i = 0; i < count; ++i) {
      const FieldPoint p =
          drawn ? shared : frames_.frame(written_ + i).field.value_or(FieldPoint{});
      xs[i] = p.x;
      ys[i] = p.y;
    }
    write_rows(field_sets_[0].get(), written_, count, 1, xs.data(), "/parameters/field_x");
    write_rows(field_sets_[1].get(), written_, count, 1, ys.data(), "/parameters/field_y");
  }
  written_ = last;
}

}  // namespace psfsim::h5
