#include "psfsim/phase_template.hpp"

#include <algorithm>

namespace psfsim {

std::optional<PhaseTemplate> PhaseTemplate::make(const Aberration& fixed,
                                                 std::span<const TermId> ids, int degree,
                                                 double waves_per_unit) {
  if (std::any_of(ids.begin(), ids.end(), [](const TermId& id) { return id.field_axis >= 0; }))
    return std::nullopt;
  // The frame's terms in set_term's order: a term set again leaves its place for the end.
  Aberration shape = fixed;
  std::vector<int> seidel_columns(fixed.seidel.size(), -1);
  std::vector<int> zernike_columns(fixed.zernike.size(), -1);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const TermId& id = ids[k];
    if (id.zernike) {
      for (std::size_t i = shape.zernike.size(); i-- > 0;)
        if (shape.zernike[i].j == id.j) {
          shape.zernike.erase(shape.zernike.begin() + static_cast<std::ptrdiff_t>(i));
          zernike_columns.erase(zernike_columns.begin() + static_cast<std::ptrdiff_t>(i));
        }
      shape.zernike.push_back({id.j, 0.0});
      zernike_columns.push_back(static_cast<int>(k));
    } else {
      for (std::size_t i = shape.seidel.size(); i-- > 0;)
        if (shape.seidel[i].l == id.l && shape.seidel[i].m == id.m) {
          shape.seidel.erase(shape.seidel.begin() + static_cast<std::ptrdiff_t>(i));
          seidel_columns.erase(seidel_columns.begin() + static_cast<std::ptrdiff_t>(i));
        }
      shape.seidel.push_back({id.l, id.m, 0.0});
      seidel_columns.push_back(static_cast<int>(k));
    }
  }
  PhaseTemplate t;
  t.degree_ = std::max(degree, required_degree(shape));
  t.waves_per_unit_ = waves_per_unit;
  // in_waves scales a fixed term once per frame; the template once, the same product.
  const auto in_waves = [&](double w) { return waves_per_unit == 1.0 ? w : w * waves_per_unit; };
  for (std::size_t i = 0; i < shape.seidel.size(); ++i) {
    Term term;
    term.column = seidel_columns[i];
    term.seidel = shape.seidel[i];
    if (term.column < 0) term.waves = in_waves(shape.seidel[i].waves);
    t.seidel_.push_back(term);
  }
  for (std::size_t i = 0; i < shape.zernike.size(); ++i) {
    Term term;
    term.column = zernike_columns[i];
    if (term.column < 0) term.waves = in_waves(shape.zernike[i].waves);
    term.zernike = static_cast<int>(t.zernike_tables_.size());
    t.zernike_tables_.push_back(zernike_table(shape.zernike[i].j, t.degree_ + 1));
    t.zernike_.push_back(term);
  }
  return t;
}

void PhaseTemplate::compile(const double* values, std::size_t stride,
                            AberrationPolynomial& out) const {
  const auto waves = [&](const Term& t) {
    if (t.column < 0) return t.waves;
    const double w = values[static_cast<std::size_t>(t.column) * stride];
    return waves_per_unit_ == 1.0 ? w : w * waves_per_unit_;
  };
  clear_tables(out, degree_);
  for (const Term& t : seidel_) {
    SeidelTerm term = t.seidel;
    term.waves = waves(t);
    add_term(out, term);
  }
  for (const Term& t : zernike_)
    add_term(out, zernike_tables_[static_cast<std::size_t>(t.zernike)], waves(t));
}

}  // namespace psfsim
