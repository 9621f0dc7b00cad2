#!/usr/bin/env python3
"""Pupil maps of the dtypes psfsim reads, written by NumPy, h5py and astropy themselves, each
beside the float64 C-order .npy file of the same values (PupilMapDtypes.WrittenByNumPy...).
Usage: typed_maps.py DIR. Exits 77 when astropy is not importable (the test skips)."""
import sys

import h5py
import numpy as np

d = sys.argv[1]
n = 32
rng = np.random.default_rng(7)
mask = rng.random((n, n)) < 0.6  # not symmetric: a transposed read differs
levels = rng.integers(0, 4, (n, n))
stack = rng.integers(-3, 4, (2, n, n))

np.save(f"{d}/mask.npy", mask.astype("<f8"))
np.save(f"{d}/levels.npy", levels.astype("<f8"))
np.save(f"{d}/stack.npy", stack.astype("<f8"))
np.save(f"{d}/mask_bool.npy", mask)
np.save(f"{d}/mask_bool_fortran.npy", np.asfortranarray(mask))
np.save(f"{d}/levels_uint8.npy", levels.astype(np.uint8))
np.save(f"{d}/levels_big_float64.npy", levels.astype(">f8"))
np.save(f"{d}/levels_big_int16_fortran.npy", np.asfortranarray(levels.astype(">i2")))
np.save(f"{d}/stack_fortran.npy", np.asfortranarray(stack.astype("<i8")))
with h5py.File(f"{d}/maps.h5", "w") as f:
    f["mask"] = mask  # h5py's bool: an enum over int8
    f["levels"] = levels.astype(np.int32)
    f["levels_big"] = levels.astype(">u2")

try:
    from astropy.io import fits
except ImportError:
    print(f"astropy is not importable by {sys.executable}", file=sys.stderr)
    sys.exit(77)
fits.PrimaryHDU(levels.astype(np.int16)).writeto(f"{d}/levels16.fits")
fits.PrimaryHDU(levels.astype(np.uint8)).writeto(f"{d}/levels8.fits")
fits.PrimaryHDU(levels.astype(np.uint16)).writeto(f"{d}/levels_bzero.fits")  # BZERO 32768
fits.PrimaryHDU(stack.astype(np.int32)).writeto(f"{d}/stack32.fits")
