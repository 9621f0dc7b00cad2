#pragma once
// The angular-spectrum propagator's three element-wise kernels (angular_spectrum.cu): the
// fields into their zero-padded grids, the spectra times the transfer function, and the crop
// back. Plain C++17 for both the kernels' file and the host code.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

struct AngularSpectrumShape {
  int samples = 0;  // N
  int padded = 0;   // M
  int offset = 0;   // the field's first row and column in the padded grid
  int fields = 0;   // how many, one after another
};

// padded[f] = the M x M grid holding field f (N x N) at (offset, offset), zeros elsewhere.
template <typename Real>
void launch_pad_fields(const DeviceComplex<Real>* fields, DeviceComplex<Real>* padded,
                       const AngularSpectrumShape& shape, cudaStream_t stream);
// spectra[f][i] *= transfer[i] for every field f, i in [0, M^2).
template <typename Real>
void launch_apply_transfer(DeviceComplex<Real>* spectra, const DeviceComplex<Real>* transfer,
                           const AngularSpectrumShape& shape, cudaStream_t stream);
// fields[f] = the N x N window at (offset, offset) of padded[f].
template <typename Real>
void launch_crop_fields(const DeviceComplex<Real>* padded, DeviceComplex<Real>* fields,
                        const AngularSpectrumShape& shape, cudaStream_t stream);

}  // namespace psfsim::cuda
