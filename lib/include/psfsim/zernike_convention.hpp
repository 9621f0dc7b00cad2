#pragma once
// How the user's Zernike indices and coefficients are read (SPEC §7: --zernike-order,
// --zernike-norm): applied to --zernike, --vary, --random and CSV headers alike.
namespace psfsim {

struct ZernikeConvention {};

}  // namespace psfsim
