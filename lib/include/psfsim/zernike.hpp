#pragma once
// Noll-indexed Zernike polynomials (R. J. Noll, JOSA 66, 207, 1976): orthonormal on the unit disk.
#include <vector>

namespace psfsim {

struct ZernikeOrder {
  int n = 0;  // radial order
  int m = 0;  // signed azimuthal order: m > 0 cos(m phi), m < 0 sin(|m| phi)
};

[[nodiscard]] ZernikeOrder noll_to_nm(int j);
// Coefficients of R_n^|m|(rho): entry k multiplies rho^(n - 2k).
[[nodiscard]] std::vector<double> radial_coefficients(int n, int m_abs);
[[nodiscard]] double noll_normalization(int n, int m);
// Direct polar evaluation; the independent reference for the Cartesian expansion.
[[nodiscard]] double zernike_polar(int j, double rho, double phi);

}  // namespace psfsim
