#!/usr/bin/env python3
"""Reads /metrics of files written by psfsim with h5py alone and checks docs/spec.md §7: one float64
dataset per metric column, one entry per frame (ee and mtf one row per frame), their
attributes, the root attribute `store`, no /psf with --store metrics, and values that agree
with the frames where both are stored. Usage: check_metrics_layout.py PSFSIM_BINARY WORKDIR"""
import os
import subprocess
import sys

import h5py
import numpy as np

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []

SCALARS = ["strehl", "strehl_centre", "centroid_x", "centroid_y", "fwhm", "rms_wavefront"]


def check(condition, message):
    if not condition:
        failures.append(message)


def run(name, *args):
    out = os.path.join(work, name + ".h5")
    cmd = [psfsim, "run", "--backend", "cpu", "--force", "--quiet", "-o", out, *args]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return h5py.File(out, "r")


# Metrics only, 4 frames, every metric, chosen radii and frequencies.
with run("only", "--samples", "32", "--vary", "Z4,0,0.3,4", "--metrics", "all",
         "--ee-radii", "1.22,2.23,4", "--mtf-frequencies", "0,0.25,0.5", "--store", "metrics",
         "--precision", "double") as f:
    check("psf" not in f, "--store metrics wrote /psf")
    check(f.attrs.get("store") == "metrics", f"root store = {f.attrs.get('store')!r}")
    m = f["metrics"]
    check(sorted(m.keys()) == sorted(SCALARS + ["ee", "mtf"]), f"/metrics holds {sorted(m)}")
    for name in SCALARS:
        d = m[name]
        check(d.shape == (4,), f"/metrics/{name} shape {d.shape}")
        check(d.dtype == np.float64, f"/metrics/{name} dtype {d.dtype}")
        check("units" in d.attrs, f"/metrics/{name} has no units")
    check(m["ee"].shape == (4, 3) and m["ee"].dtype == np.float64, f"ee {m['ee'].shape}")
    check(m["mtf"].shape == (4, 3) and m["mtf"].dtype == np.float64, f"mtf {m['mtf'].shape}")
    check(np.allclose(m["ee"].attrs["radii_lambda_over_d"], [1.22, 2.23, 4]),
          f"radii {m['ee'].attrs.get('radii_lambda_over_d')}")
    check(np.allclose(m["mtf"].attrs["frequencies_cutoff"], [0, 0.25, 0.5]),
          f"frequencies {m['mtf'].attrs.get('frequencies_cutoff')}")
    for unit_of, want in (("centroid_x", "lambda/D"), ("fwhm", "lambda/D"),
                          ("rms_wavefront", "waves"), ("strehl", "1")):
        got = m[unit_of].attrs.get("units")
        check(got == want, f"/metrics/{unit_of} units {got!r}, want {want!r}")
    # Frame 0 is unaberrated: Strehl 1 and MTF(0) 1 to double rounding; defocus lowers the
    # Strehl monotonically over 0..0.3 waves RMS; rms_wavefront is the Z4 coefficient to the
    # N = 32 rim's sampling (3 %).
    strehl = m["strehl"][()]
    check(abs(strehl[0] - 1) < 1e-12, f"unaberrated strehl {strehl[0]}")
    check(np.all(np.diff(strehl) < 0), f"strehl not falling with defocus: {strehl}")
    check(np.all(m["mtf"][:, 0] == 1.0), f"MTF(0) {m['mtf'][:, 0]}")
    rms = m["rms_wavefront"][()]
    check(np.allclose(rms, [0, 0.1, 0.2, 0.3], rtol=0.03, atol=1e-12), f"rms_wavefront {rms}")

# Both: the stored frames and the metrics agree where the metric is a plain function of the
# frame (double, full frame, peak normalization).
with run("both", "--samples", "32", "--vary", "Z7,0,0.2,3", "--metrics", "strehl,centroid,ee",
         "--ee-radii", "100", "--precision", "double", "--normalize", "peak") as f:
    check(f.attrs.get("store") == "both", f"root store = {f.attrs.get('store')!r}")
    psf = f["psf"][()]
    check(psf.shape == (3, 64, 64), f"/psf shape {psf.shape}")
    m = f["metrics"]
    check(np.allclose(m["strehl"][()], psf.reshape(3, -1).max(axis=1), rtol=1e-12, atol=0),
          "strehl is not the frames' maximum under peak normalization")
    s = f["psf"].attrs["pixel_scale_lambda_over_d"]
    axis = np.arange(64) - 32
    cx = (psf * axis[None, None, :]).sum(axis=(1, 2)) / psf.sum(axis=(1, 2)) * s
    cy = (psf * axis[None, :, None]).sum(axis=(1, 2)) / psf.sum(axis=(1, 2)) * s
    check(np.allclose(m["centroid_x"][()], cx, atol=1e-12), f"centroid_x {m['centroid_x'][()]} vs {cx}")
    check(np.allclose(m["centroid_y"][()], cy, atol=1e-12), f"centroid_y {m['centroid_y'][()]} vs {cy}")
    # A radius beyond the whole frame: the EE is all the energy there is, Parseval's total.
    check(np.allclose(m["ee"][:, 0], 1.0, atol=1e-12), f"ee at 100 lambda/D {m['ee'][:, 0]}")

# Frames only (the default without --metrics): no /metrics.
with run("frames", "--samples", "16") as f:
    check("metrics" not in f and "psf" in f, f"default run holds {sorted(f.keys())}")
    check(f.attrs.get("store") == "frames", f"root store = {f.attrs.get('store')!r}")

if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print("metrics layout: all checks passed")
