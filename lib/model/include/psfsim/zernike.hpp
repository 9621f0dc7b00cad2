#pragma once
// Noll-indexed Zernike polynomials (R. J. Noll, JOSA 66, 207, 1976): orthonormal on the unit disk.
#include <vector>

namespace psfsim {

struct ZernikeOrder {
  int n = 0;  // radial order
  int m = 0;  // signed azimuthal order: m > 0 cos(m phi), m < 0 sin(|m| phi)
};

[[nodiscard]] ZernikeOrder noll_to_nm(int j);
// The inverse: the Noll j of (n, m); n >= 0, |m| <= n, n - |m| even.
[[nodiscard]] int nm_to_noll(ZernikeOrder nm);
// ANSI Z80.28 / OSA single index j >= 0: j = (n(n+2)+m)/2, m < 0 the sine term.
[[nodiscard]] ZernikeOrder ansi_to_nm(int j);
// Fringe (University of Arizona) index 1-37, Wyant's table: cos before sin, 37 = (12, 0).
[[nodiscard]] ZernikeOrder fringe_to_nm(int j);
// Coefficients of R_n^|m|(rho): entry k multiplies rho^(n - 2k).
[[nodiscard]] std::vector<double> radial_coefficients(int n, int m_abs);
[[nodiscard]] double noll_normalization(int n, int m);
// Direct polar evaluation; the independent reference for the Cartesian expansion.
[[nodiscard]] double zernike_polar(int j, double rho, double phi);

}  // namespace psfsim
