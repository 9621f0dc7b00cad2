#pragma once
// The Bessel function J1 in double, to about 1e-15 absolute for any argument: the exact
// encircled energy's kernel (encircled_energy_weights.hpp) takes millions of values per plan,
// which std::cyl_bessel_j gives a hundred times slower.

namespace psfsim {

[[nodiscard]] double bessel_j1(double x) noexcept;

}  // namespace psfsim
