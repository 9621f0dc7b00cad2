#include "psfsim/phase_template.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace psfsim {

std::optional<PhaseTemplate> PhaseTemplate::make(const Aberration& fixed,
                                                 std::span<const TermId> ids, int degree,
                                                 double waves_per_unit) {
  if (std::any_of(ids.begin(), ids.end(), [](const TermId& id) { return id.field_axis >= 0; }))
    return std::nullopt;
  // The frame's terms in set_term's own order, each set term marked NaN; the last id naming
  // a term is the column its value comes from.
  Aberration shape = fixed;
  for (const TermId& id : ids) set_term(shape, id, std::numeric_limits<double>::quiet_NaN());
  const auto column = [&](auto&& names_it) {
    for (std::size_t k = ids.size(); k-- > 0;)
      if (names_it(ids[k])) return static_cast<int>(k);
    return -1;
  };
  PhaseTemplate t;
  t.degree_ = std::max(degree, required_degree(shape));
  t.waves_per_unit_ = waves_per_unit;
  // in_waves scales a fixed term once per frame; the template once, the same product.
  const auto in_waves = [&](double w) { return waves_per_unit == 1.0 ? w : w * waves_per_unit; };
  for (std::size_t i = 0; i < shape.seidel.size(); ++i) {
    const SeidelTerm& held = shape.seidel[i];
    Term term;
    if (std::isnan(held.waves))
      term.column =
          column([&](const TermId& id) { return !id.zernike && id.l == held.l && id.m == held.m; });
    term.seidel = held;
    if (term.column < 0) term.waves = in_waves(shape.seidel[i].waves);
    t.seidel_.push_back(term);
  }
  for (std::size_t i = 0; i < shape.zernike.size(); ++i) {
    const int j = shape.zernike[i].j;
    Term term;
    if (std::isnan(shape.zernike[i].waves))
      term.column = column([&](const TermId& id) { return id.zernike && id.j == j; });
    if (term.column < 0) term.waves = in_waves(shape.zernike[i].waves);
    term.zernike = static_cast<int>(t.zernike_tables_.size());
    t.zernike_tables_.push_back(zernike_table(j, t.degree_ + 1));
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
