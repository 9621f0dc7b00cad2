#pragma once
// The phase terms of one frame, as the user wrote them (docs/spec.md §1), in waves.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/field_point.hpp"
#include "psfsim/zernike_convention.hpp"

namespace psfsim {

// Hopkins term W * rho^l * cos^m(phi - azimuth). The options give azimuth 0 (the term points
// along +x); a field-dependent term (field_aberration.hpp) points along its field point's.
struct SeidelTerm {
  int l = 0;
  int m = 0;
  double waves = 0.0;
  double azimuth = 0.0;  // radians, from +x towards +y
};

// c * Z_j(rho, phi), Noll index j >= 1, Noll normalization: what the phase model computes.
// Only the terms parse_zernike returns, before to_noll, are in the user's convention.
struct ZernikeTerm {
  int j = 1;
  double waves = 0.0;
};

struct Aberration {
  std::vector<SeidelTerm> seidel;
  std::vector<ZernikeTerm> zernike;
  // Where the frame sits in the field, when the run places it (--field, --field-grid, a
  // field_x/field_y term): the run's field model adds its terms there (field_model.hpp).
  std::optional<FieldPoint> field{};
};

// Largest supported orders. The Cartesian expansion of the highest ones cancels large
// coefficients: Z301 (n = 24) rounds by 8e-8 waves per wave (aberration_polynomial.hpp).
inline constexpr int max_zernike_radial_order = 24;
inline constexpr int max_seidel_power = 24;

// "l,m,W" and "j,c"; throw InputError naming `option` on any malformed or out-of-range field.
[[nodiscard]] SeidelTerm parse_seidel(std::string_view text, std::string_view option);
// The term as written: j checked against `order`'s indices, not yet mapped (see to_noll).
[[nodiscard]] ZernikeTerm parse_zernike(std::string_view text, std::string_view option,
                                        ZernikeOrdering order = ZernikeOrdering::noll);
// Terms written under `convention` as the phase model's Noll terms; Seidel terms unchanged.
[[nodiscard]] Aberration to_noll(const Aberration& written, const ZernikeConvention& convention);

// Stable column names for /parameters and frame tables: "S2_1" (Seidel l=2, m=1), "Z4".
[[nodiscard]] std::string term_name(const SeidelTerm& t);
[[nodiscard]] std::string term_name(const ZernikeTerm& t);
[[nodiscard]] std::string to_string(const SeidelTerm& t);   // "2,1,1"
[[nodiscard]] std::string to_string(const ZernikeTerm& t);  // "4,0.1"

}  // namespace psfsim
