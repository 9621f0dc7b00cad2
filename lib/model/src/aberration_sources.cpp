#include "psfsim/aberration_sources.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <istream>
#include <random>

#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/csv_rows.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

[[noreturn]] void reject(std::string_view context, std::string_view why) {
  throw InputError(std::string(context) + ": " + std::string(why));
}

long long integer_field(std::string_view field, std::string_view context, std::string_view name,
                        long long lo, long long hi) {
  const auto v = parse_integer(field);
  if (!v || *v < lo || *v > hi)
    reject(context, std::string(name) + " must be an integer in [" + std::to_string(lo) + ", " +
                        std::to_string(hi) + "], got '" + std::string(field) + "'");
  return *v;
}

double number_field(std::string_view field, std::string_view context, std::string_view name) {
  const auto v = parse_finite_double(field);
  if (!v)
    reject(context,
           std::string(name) + " must be a finite number, got '" + std::string(field) + "'");
  if (std::fabs(*v) > 1e6) reject(context, std::string(name) + " exceeds 1e6 waves");
  return *v;
}

// Standard normal draws by Box-Muller (std::normal_distribution differs between libraries,
// and the same seed must give the same frames everywhere): draws 2p and 2p+1 share raw values
// 2p and 2p+1, r cos(2 pi u2) and r sin(2 pi u2), r computed once for both. `raw` holds the
// stream from index `first` (even).
class NormalDraws {
 public:
  NormalDraws(const std::uint64_t* raw, std::uint64_t first) : raw_(raw), first_(first) {}
  // Draw i; consecutive draws reuse their pair's radius.
  double operator()(std::uint64_t i) {
    const std::uint64_t pair = i / 2 * 2;
    if (pair != pair_) {
      const std::uint64_t* p = raw_ + (pair - first_);
      const double u1 = (static_cast<double>(p[0] >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
      u2_ = static_cast<double>(p[1] >> 11) * 0x1.0p-53;                      // [0, 1)
      r_ = std::sqrt(-2.0 * std::log(u1));
      pair_ = pair;
    }
    return i % 2 == 0 ? r_ * std::cos(2.0 * M_PI * u2_) : r_ * std::sin(2.0 * M_PI * u2_);
  }

 private:
  const std::uint64_t* raw_;
  std::uint64_t first_;
  std::uint64_t pair_ = UINT64_MAX;
  double u2_ = 0.0, r_ = 0.0;
};

}  // namespace

TermId parse_term_id(std::string_view name, std::string_view context,
                     const ZernikeConvention& convention) {
  const std::string n(trim(name));
  TermId id;
  if (n == "field_x" || n == "field_y") {
    id.zernike = false;
    id.field_axis = n == "field_x" ? 0 : 1;
    return id;
  }
  if (n.size() >= 2 && (n[0] == 'Z' || n[0] == 'z')) {
    const auto [first, last] = index_range(convention.order);
    const auto index = integer_field(
        std::string_view(n).substr(1), context,
        "the " + std::string(display_name(convention.order)) + " index of '" + n + "'", first,
        last);
    const NollMapping noll = to_noll(static_cast<int>(index), convention);
    id.zernike = true;
    id.j = noll.j;
    id.divisor = noll.divisor;
    return id;
  }
  if (n.size() >= 4 && (n[0] == 'S' || n[0] == 's')) {
    const auto parts = split_fields(std::string_view(n).substr(1), '_');
    if (parts.size() == 2) {
      id.zernike = false;
      id.l = static_cast<int>(
          integer_field(parts[0], context, "l of '" + n + "'", 0, max_seidel_power));
      id.m = static_cast<int>(integer_field(parts[1], context, "m of '" + n + "'", 0, id.l));
      return id;
    }
  }
  reject(context, "unknown term '" + n +
                      "' (expected Z<j> such as Z4, S<l>_<m> such as S2_1, or "
                      "field_x, field_y)");
}

void set_term(Aberration& terms, const TermId& id, double value) {
  if (id.field_axis >= 0) {
    if (!terms.field) terms.field = FieldPoint{};
    (id.field_axis == 0 ? terms.field->x : terms.field->y) = value;
  } else if (id.zernike) {
    std::erase_if(terms.zernike, [&](const ZernikeTerm& t) { return t.j == id.j; });
    terms.zernike.push_back({id.j, stored_value(id, value)});
  } else {
    std::erase_if(terms.seidel, [&](const SeidelTerm& t) { return t.l == id.l && t.m == id.m; });
    terms.seidel.push_back({id.l, id.m, value});
  }
}

VarySpec parse_vary(std::string_view text, const ZernikeConvention& convention) {
  const std::string context = flag(Option::vary) + " '" + std::string(text) + "'";
  const auto f = split_fields(text, ',');
  if (f.size() != 4) reject(context, "expected TERM,START,STOP,COUNT (e.g. Z4,-0.5,0.5,11)");
  VarySpec v;
  v.term = parse_term_id(f[0], context, convention);
  v.start = number_field(f[1], context, "START");
  v.stop = number_field(f[2], context, "STOP");
  v.count = static_cast<int>(integer_field(f[3], context, "COUNT", 1, max_frames));
  return v;
}

RandomSpec parse_random(std::string_view text, ZernikeOrdering order) {
  const std::string context = flag(Option::random) + " '" + std::string(text) + "'";
  const auto f = split_fields(text, ',');
  if (f.size() != 4) reject(context, "expected JMIN-JMAX,RMS,COUNT,SEED (e.g. 4-15,0.05,1000,1)");
  const auto range = split_fields(f[0], '-');
  const std::string name(display_name(order));
  if (range.size() != 2)
    reject(context, "expected JMIN-JMAX, a range of " + name + " indices such as 4-15");
  const auto [first, last] = index_range(order);
  RandomSpec r;
  r.order = order;
  r.j_min = static_cast<int>(
      integer_field(range[0], context, "JMIN, a " + name + " index,", first, last));
  r.j_max = static_cast<int>(
      integer_field(range[1], context, "JMAX, a " + name + " index,", r.j_min, last));
  r.rms = number_field(f[1], context, "RMS");
  if (r.rms < 0) reject(context, "RMS must be >= 0");
  r.count = static_cast<int>(integer_field(f[2], context, "COUNT", 1, max_frames));
  const auto seed = parse_seed(f[3]);
  if (!seed)
    reject(context, "SEED must be a decimal integer from 0 to " + std::to_string(max_seed) +
                        ", got '" + std::string(f[3]) + "'");
  r.seed = *seed;
  return r;
}

std::vector<Aberration> expand(const Aberration& fixed, const VarySpec& v) {
  std::vector<Aberration> frames(v.count, fixed);
  for (int i = 0; i < v.count; ++i) {
    const double t = v.count == 1 ? 0.0 : static_cast<double>(i) / (v.count - 1);
    const double value =
        i == v.count - 1 && v.count > 1 ? v.stop : v.start + (v.stop - v.start) * t;
    set_term(frames[i], v.term, value);
  }
  return frames;
}

RandomAberrationDraws::RandomAberrationDraws(RandomAberrations frames, std::size_t first)
    : frames_(std::move(frames)), first_(first), engine_(frames_.random.seed) {
  const RandomSpec& r = frames_.random;
  // The draws are Noll (RMS) coefficients, so RMS stays the wavefront's under any
  // normalization.
  for (int j = r.j_min; j <= r.j_max; ++j)
    ids_.push_back({true, to_noll(j, {r.order, ZernikeNorm::rms}).j, 0, 0});
  sigma_ = r.rms / std::sqrt(static_cast<double>(ids_.size()));
  terms_ = frames_.fixed.zernike.size() + ids_.size();
}

void RandomAberrationDraws::draw(std::size_t first, std::size_t count) {
  const std::uint64_t per_frame = ids_.size();
  const std::uint64_t begin = (first_ + first) * per_frame / 2 * 2;
  const std::uint64_t end = ((first_ + first + count) * per_frame + 1) / 2 * 2;
  std::vector<std::uint64_t> raw(end - begin);
  std::uint64_t from = begin;  // the first value `raw` lacks
  const std::uint64_t raw_end = raw_first_ + raw_.size();
  if (begin >= raw_first_ && begin < raw_end && (end <= raw_end || raw_end == consumed_)) {
    // The last draw's tail: with an odd number of terms, the Box-Muller pair that straddles
    // two chunks (rather than the stream again from its seed, for every chunk).
    const std::uint64_t kept = std::min(end, raw_end) - begin;
    std::copy_n(raw_.begin() + static_cast<std::ptrdiff_t>(begin - raw_first_), kept, raw.begin());
    from += kept;
  } else if (begin < consumed_) {  // backward: the stream again from its seed
    engine_.seed(frames_.random.seed);
    consumed_ = 0;
  }
  if (from < end) {
    engine_.discard(from - consumed_);
    for (std::uint64_t i = from - begin; i < raw.size(); ++i) raw[i] = engine_();
    consumed_ = end;
  }
  raw_ = std::move(raw);
  raw_first_ = begin;
}

Aberration RandomAberrationDraws::frame(std::size_t f) const {
  const std::uint64_t first_draw = (first_ + f) * ids_.size();
  NormalDraws normal(raw_.data(), raw_first_);
  Aberration terms = frames_.fixed;
  terms.zernike.reserve(terms_);  // one allocation per frame rather than five
  for (std::size_t k = 0; k < ids_.size(); ++k)
    set_term(terms, ids_[k], sigma_ * normal(first_draw + k));
  return terms;
}

void RandomAberrationDraws::values(std::size_t f, double* out) const {
  const std::uint64_t first_draw = (first_ + f) * ids_.size();
  NormalDraws normal(raw_.data(), raw_first_);
  for (std::size_t k = 0; k < ids_.size(); ++k)
    out[k] = stored_value(ids_[k], sigma_ * normal(first_draw + k));
}

Aberration RandomAberrationDraws::any_frame() const {
  Aberration terms = frames_.fixed;
  for (const TermId& id : ids_) set_term(terms, id, 1.0);
  return terms;
}

std::vector<Aberration> expand(const Aberration& fixed, const RandomSpec& r) {
  RandomAberrationDraws draws({fixed, r});
  draws.draw(0, draws.size());
  std::vector<Aberration> frames(draws.size());
  for_contiguous_runs(frames.size(), [&](std::size_t first, std::size_t last) {
    for (std::size_t f = first; f < last; ++f) frames[f] = draws.frame(f);
  });
  return frames;
}

std::vector<Aberration> parse_frames_csv(const Aberration& fixed, std::istream& in,
                                         const std::filesystem::path& path,
                                         const ZernikeConvention& convention) {
  const std::string name = flag(Option::frames) + " " + path.string();
  std::vector<TermId> columns;
  std::vector<Aberration> frames;
  for_each_csv_row(in, name, [&](const std::string& where, const auto& fields) {
    if (columns.empty()) {
      for (const auto& f : fields) {
        const TermId id = parse_term_id(f, where, convention);
        if (std::find(columns.begin(), columns.end(), id) != columns.end())
          reject(where, "the header names " + std::string(trim(f)) + " twice");
        columns.push_back(id);
      }
      return;
    }
    if (fields.size() != columns.size())
      reject(where, "has " + std::to_string(fields.size()) + " values, the header names " +
                        std::to_string(columns.size()) + " terms");
    Aberration frame = fixed;
    for (std::size_t c = 0; c < fields.size(); ++c)
      set_term(frame, columns[c],
               number_field(fields[c], where, "column " + std::to_string(c + 1)));
    frames.push_back(std::move(frame));
    if (frames.size() > static_cast<std::size_t>(max_frames)) reject(where, "too many frames");
  });
  if (columns.empty()) reject(name, "no header line naming the terms (e.g. Z4,Z11)");
  if (frames.empty()) reject(name, "no frames after the header");
  return frames;
}

}  // namespace psfsim
