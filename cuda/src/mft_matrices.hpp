#pragma once
// The MFT's Fourier matrices (docs/spec.md §6), worked out once per plan on the host in double.
#include <complex>
#include <vector>

#include "psfsim/psf_plan.hpp"

namespace psfsim::cuda {

// For each channel k in plan order, the row-major frame x N matrix
//   A_k[q][i] = exp(-2 pi i theta_q xi_i),  theta_q = (q - pixel_centre) * pixel_scale_k,
//   xi_i = x_i / 2,
// with x_i the plan grid's coordinates. The same matrix serves the rows (y) and the columns
// (x): both axes sample the one grid at the one set of pixel centres.
[[nodiscard]] std::vector<std::complex<double>> mft_matrices(const PsfPlan& plan);

}  // namespace psfsim::cuda
