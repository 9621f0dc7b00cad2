#pragma once
// Writers of pupil maps in the three formats psfsim reads (HDF5, NumPy .npy, FITS), written
// from the formats' definitions, independent of psfsim's readers.
#include <hdf5.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace psfsim::test {

using Dims = std::vector<std::size_t>;

// NumPy's format 1.0 of `v` (C order, [frame][row][column]) with the dtype `descr`: a byte
// order ('<', '>', '|', '=') and one of b1, i1..i8, u1..u8, f4, f8; any other kind ('<c16',
// '|S8') gets zero bytes of its size, for the refusals. `fortran` stores the values in
// Fortran order and says so in the header.
void write_npy(const std::string& path, const Dims& dims, const std::vector<double>& v,
               const std::string& descr = "<f8", bool fortran = false);

// A FITS primary HDU of BITPIX 8, 16, 32, 64, -32 or -64; NAXIS1 is the last (fastest)
// dimension. `cards` are extra KEY, VALUE cards (BSCALE, BZERO, BLANK); `v` is stored as
// given, so a caller scaling it applies the inverse itself.
void write_fits(const std::string& path, const Dims& dims, const std::vector<double>& v,
                int bitpix = -64,
                const std::vector<std::pair<std::string, std::string>>& cards = {});

// An HDF5 dataset (intermediate groups created) of `file_type`, written from doubles; an
// empty `v` leaves it unwritten (its fill value), for types doubles do not convert to.
void write_h5(const std::string& path, const std::string& dataset, const Dims& dims,
              const std::vector<double>& v, hid_t file_type = H5T_IEEE_F64LE, bool truncate = true);

}  // namespace psfsim::test
