#pragma once
// Aberrations that vary over the field of view, evaluated at one field point into the pupil
// terms of that point's frame (docs/field.md):
//   Hopkins' field-dependent Seidel terms  W_klm * H^k * rho^l * cos^m(phi - theta_H)
//   double Zernikes (GalSim's DoubleZernike)  c_kj * Z_k(H) * Z_j(rho, phi)
// H is the field point in units of the field radius, theta_H its azimuth from +x towards +y;
// both indices of a double Zernike are Noll's, each polynomial Noll-normalized on its unit
// disk. The pupil terms they give are ordinary frame terms, so every backend computes them
// through the frame's phase polynomial.
#include <string_view>
#include <vector>

#include "psfsim/aberration.hpp"
#include "psfsim/field_point.hpp"

namespace psfsim {

struct SeidelFieldTerm {
  int k = 0;  // the power of H
  int l = 0;
  int m = 0;
  double waves = 0.0;
};

struct DoubleZernikeTerm {
  int k = 1;  // Noll index over the field
  int j = 1;  // Noll index over the pupil
  double waves = 0.0;
};

struct FieldAberrations {
  std::vector<SeidelFieldTerm> seidel;
  std::vector<DoubleZernikeTerm> double_zernike;
  [[nodiscard]] bool empty() const noexcept { return seidel.empty() && double_zernike.empty(); }
};

// Largest power of H a Seidel field term may have; beyond it the term is surely a typo.
inline constexpr int max_field_power = 12;

// "k,l,m,W" and "k,j,c"; throw InputError naming `option` on a malformed or out-of-range field.
[[nodiscard]] SeidelFieldTerm parse_seidel_field(std::string_view text, std::string_view option);
[[nodiscard]] DoubleZernikeTerm parse_double_zernike(std::string_view text,
                                                     std::string_view option);

// The pupil terms `field` gives at `point`: one rotated Seidel term per Seidel field term
// (W * |H|^k, pointing along theta_H), and one Zernike per pupil index the double Zernikes
// use, a_j = sum_k c_kj Z_k(H). Terms that vanish at the point are still listed, so that
// every point gives the same shape (required_degree of any point is that of all).
[[nodiscard]] Aberration pupil_terms(const FieldAberrations& field, FieldPoint point);

// NX x NY points spanning [-radius, radius] evenly on each axis, x varying fastest (row-major,
// as an image is stored); an axis of one point sits at 0.
[[nodiscard]] std::vector<FieldPoint> field_grid(int nx, int ny, double radius = 1.0);

}  // namespace psfsim
