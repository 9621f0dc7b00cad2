#!/usr/bin/env python3
"""Exports psfsim files with `psfsim export` and reads the FITS back with astropy alone
(docs/spec.md §7): the data equal /psf bit for bit, the keywords hold the file's values, the
PARAMETERS table equals /parameters. Exits 77 (skipped) without astropy.
Usage: check_fits_export.py PSFSIM_BINARY WORKDIR"""
import math
import os
import subprocess
import sys

import h5py
import numpy as np

try:
    from astropy.io import fits
except ImportError:
    print("astropy is not importable here (Debian: python3-astropy): skipped")
    sys.exit(77)

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run_and_export(name, *args):
    h5 = os.path.join(work, name + ".h5")
    out = os.path.join(work, name + ".fits")
    subprocess.run([psfsim, "run", "--backend", "cpu", "--quiet", "--force", "-o", h5, *args],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([psfsim, "export", h5, "--fits", out, "--force"], check=True,
                   stdout=subprocess.DEVNULL)
    return h5, out


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-15, abs_tol=0.0)


def check_common(name, h5, out):
    """What every export holds: the cube, the PARAMETERS table, the provenance keywords."""
    with h5py.File(h5, "r") as f, fits.open(out) as hdul:
        psf = f["psf"][()]
        a = f["psf"].attrs
        primary = hdul[0]
        h = primary.header
        data = primary.data
        # FITS is big-endian and NAXIS1 the fastest axis: astropy gives (frame, y, x) as h5py.
        want_bitpix = -32 if psf.dtype == np.float32 else -64
        check(h["BITPIX"] == want_bitpix, f"{name}: BITPIX {h['BITPIX']}, want {want_bitpix}")
        check(h["NAXIS"] == 3, f"{name}: NAXIS {h['NAXIS']}")
        check((h["NAXIS1"], h["NAXIS2"], h["NAXIS3"]) == psf.shape[::-1],
              f"{name}: NAXISn {h['NAXIS1'], h['NAXIS2'], h['NAXIS3']} for /psf {psf.shape}")
        check(data.shape == psf.shape, f"{name}: data shape {data.shape}, /psf {psf.shape}")
        same_bits = (data.dtype.itemsize == psf.dtype.itemsize and
                     np.array_equal(data.astype(psf.dtype).view(np.uint8),
                                    psf.view(np.uint8)))
        check(same_bits, f"{name}: the FITS data differ from /psf")
        check(h["ORIGIN"] == "psfsim", f"{name}: ORIGIN {h.get('ORIGIN')!r}")
        check(h["CREATOR"].startswith("psfsim "), f"{name}: CREATOR {h.get('CREATOR')!r}")
        check(h["SRCFILE"] == os.path.basename(h5), f"{name}: SRCFILE {h.get('SRCFILE')!r}")
        check(h["SRCVERS"] == f.attrs["psfsim_version"], f"{name}: SRCVERS")
        check(h["SRCDATE"] == f.attrs["created_utc"], f"{name}: SRCDATE")
        check("DATE" in h and "T" in h["DATE"], f"{name}: DATE {h.get('DATE')!r}")
        history = "".join(str(c) for c in h["HISTORY"])
        check("export" in history and "--fits" in history, f"{name}: HISTORY {history!r}")
        check(h["NORMALIZ"] == a["normalization"], f"{name}: NORMALIZ {h.get('NORMALIZ')!r}")
        check(h["SAMPLES"] == a["samples"], f"{name}: SAMPLES {h.get('SAMPLES')!r}")
        check(h["PROPAGAT"] == a["propagation"], f"{name}: PROPAGAT {h.get('PROPAGAT')!r}")
        # POPPY's meaning: the frames are on detector pixels; DET_SAMP says how finely computed.
        check(h["OVERSAMP"] == 1, f"{name}: OVERSAMP {h.get('OVERSAMP')}")
        check(h["DET_SAMP"] == a.get("oversample", 1), f"{name}: DET_SAMP {h.get('DET_SAMP')}")
        waves = len(f["spectrum/wavelength_m"]) if "spectrum" in f else 1
        check(h["NWAVES"] == waves, f"{name}: NWAVES {h.get('NWAVES')}, want {waves}")
        check(close(h["PIXSCLLD"], a["pixel_scale_lambda_over_d"]), f"{name}: PIXSCLLD")
        # PARAMETERS: one row per frame, one column per /parameters dataset, its unit.
        table = hdul["PARAMETERS"]
        p = f["parameters"]
        # psfsim's order of terms, not HDF5's name order: Seidel (l, m), then Zernike j.
        def key(term):
            t = p[term].attrs
            return (0, t["l"], t["m"]) if t["kind"] == "seidel" else (1, t["j"], 0)
        check(table.columns.names == sorted(p.keys(), key=key),
              f"{name}: PARAMETERS columns {table.columns.names}, /parameters {list(p.keys())}")
        check(table.header["NAXIS2"] == psf.shape[0], f"{name}: PARAMETERS rows")
        for column in table.columns:
            if column.name not in p:
                continue
            check(np.array_equal(table.data[column.name], p[column.name][()]),
                  f"{name}: PARAMETERS {column.name} differs from /parameters")
            check(column.unit == p[column.name].attrs["units"],
                  f"{name}: TUNIT of {column.name} {column.unit!r}")
        return h


# Physical units: 31 mas pixels of a 6.5 m pupil at 2 um, a through-focus batch.
h5, out = run_and_export("physical", "--wavelength", "2um", "--diameter", "6.5m",
                         "--pixel-scale", "31mas", "--crop", "32", "--vary", "Z4,-0.5,0.5,3")
h = check_common("physical", h5, out)
# /psf stores 31 mas as computed (0.030999999999999996): the keyword holds that very double.
with h5py.File(h5, "r") as f:
    stored = f["psf"].attrs["pixel_scale_arcsec"]
check(h["PIXELSCL"] == stored and math.isclose(h["PIXELSCL"], 0.031, rel_tol=1e-12),
      f"physical: PIXELSCL {h.get('PIXELSCL')}, /psf {stored}")
check(h["PIXUNIT"] == "arcsec", f"physical: PIXUNIT {h.get('PIXUNIT')!r}")
check(close(h["WAVELEN"], 2e-6), f"physical: WAVELEN {h.get('WAVELEN')}")
check(close(h["DIAM"], 6.5), f"physical: DIAM {h.get('DIAM')}")
check(math.isclose(h["DIFFLMT"], 206264.806 * 2e-6 / 6.5, rel_tol=1e-8),
      f"physical: DIFFLMT {h.get('DIFFLMT')}")
check("BUNIT" not in h, "physical: BUNIT for relative intensities")
with fits.open(out) as hdul:
    z4 = hdul["PARAMETERS"].data["Z4"]
    check(z4.tolist() == [-0.5, 0.0, 0.5], f"physical: Z4 {z4.tolist()}")

# Polychromatic, oversampled, noisy, double: NWAVES, OVERSAMP, BUNIT, BITPIX -64.
h5, out = run_and_export("band", "--band", "1.5um-2.5um,5", "--diameter", "6.5m",
                         "--pixel-scale", "31mas", "--crop", "24", "--oversample", "3",
                         "--precision", "double", "--zernike", "6,0.05", "--photons", "1e5",
                         "--noise-seed", "7")
h = check_common("band", h5, out)
check(h["NWAVES"] == 5, f"band: NWAVES {h.get('NWAVES')}")
check(h["DET_SAMP"] == 3, f"band: DET_SAMP {h.get('DET_SAMP')}")
check(h.get("BUNIT") == "electron", f"band: BUNIT {h.get('BUNIT')!r}")
check(h.get("NORMALIZ") == "photons", f"band: NORMALIZ {h.get('NORMALIZ')!r} beside BUNIT")

# A lambda/D run: no physical scale, so no PIXELSCL, WAVELEN or DIFFLMT; PIXSCLLD instead.
h5, out = run_and_export("lod", "--samples", "64", "--pad-factor", "2.5", "--crop", "40",
                         "--random", "4-11,0.05,4,1", "--seidel", "2,1,0.25",
                         "--seidel", "1,1,0.1")
h = check_common("lod", h5, out)
with fits.open(out) as hdul:
    names = hdul["PARAMETERS"].columns.names
    want = ["S1_1", "S2_1"] + [f"Z{j}" for j in range(4, 12)]
    check(names == want, f"lod: PARAMETERS columns {names}, want {want}")
for key in ("PIXELSCL", "WAVELEN", "DIFFLMT", "DIAM"):
    check(key not in h, f"lod: {key} without physical units")
check(close(h["PIXSCLLD"], 0.4), f"lod: PIXSCLLD {h.get('PIXSCLLD')}")
check(h["NWAVES"] == 1 and h["DET_SAMP"] == 1, "lod: NWAVES and DET_SAMP default to 1")

# No phase terms: a PARAMETERS table of no columns, one row per frame.
h5, out = run_and_export("airy", "--samples", "32", "--precision", "double")
check_common("airy", h5, out)
with fits.open(out) as hdul:
    check(len(hdul["PARAMETERS"].columns) == 0, "airy: PARAMETERS columns without terms")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("FITS export: data, keywords and PARAMETERS table as in the HDF5 files")
