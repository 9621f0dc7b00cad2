#!/usr/bin/env python3
"""Reads files written by psfsim with h5py alone and checks docs/spec.md §3: shapes, dtypes,
attributes, /parameters and /timings. Usage: check_output_layout.py PSFSIM_BINARY WORKDIR"""
import os
import subprocess
import sys
import tomllib

import h5py
import numpy as np

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(name, *args):
    out = os.path.join(work, name + ".h5")
    cmd = [psfsim, "run", "--backend", "cpu", "--force", "-o", out, *args]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return h5py.File(out, "r")


with run("full", "--samples", "64", "--pad-factor", "2.5", "--precision", "double",
         "--seidel", "2,1,1.0", "--zernike", "4,0.1", "--zernike", "11,0.05",
         "--repeat", "3", "--normalize", "sum") as f:
    psf = f["psf"]
    check(psf.shape == (1, 160, 160), f"/psf shape {psf.shape}")
    check(psf.dtype == np.float64, f"/psf dtype {psf.dtype}")
    check(psf.chunks[0] == 1, f"/psf chunks {psf.chunks}")
    a = psf.attrs
    expected = {"normalization": "sum", "grid": "centered", "samples": 64, "padded_size": 160,
                "precision": "double", "backend": "cpu"}
    for key, value in expected.items():
        check(a.get(key) == value, f"/psf attribute {key} = {a.get(key)!r}, want {value!r}")
    check(abs(a["pad_factor"] - 2.5) < 1e-12, "pad_factor")
    check(abs(a["pixel_scale_lambda_over_d"] - 0.4) < 1e-12, "pixel_scale_lambda_over_d")
    check(abs(psf[0].sum() - 1) < 1e-12, f"sum normalization gives {psf[0].sum()}")
    p = f["parameters"]
    check(sorted(p.keys()) == ["S2_1", "Z11", "Z4"], f"/parameters {sorted(p.keys())}")
    check(p["S2_1"][()].tolist() == [1.0] and p["Z4"][()].tolist() == [0.1], "parameter values")
    check(p["S2_1"].attrs["l"] == 2 and p["S2_1"].attrs["m"] == 1, "seidel attributes")
    t = f["timings"]
    for stage in ("pupil", "fft", "intensity", "total"):
        check(stage in t and t[stage].shape == (3,), f"/timings/{stage}")
        check(stage in t and np.all(t[stage][()] > 0), f"/timings/{stage} positive")
    check("transfer" not in t, "/timings/transfer absent on the CPU")
    check(t["write"].shape == (1,), "/timings/write")
    check("plan" in t and t["plan"].shape == (1,) and t["plan"][0] > 0, "/timings/plan")
    check(t.attrs["units"] == "s" and t.attrs["backend"] == "cpu", "/timings attributes")
    check(t.attrs["precision"] == "double" and t.attrs["threads"] >= 1, "/timings attrs 2")
    r = f.attrs
    for key in ("psfsim_version", "git_commit", "created_utc", "command_line", "config"):
        check(key in r, f"root attribute {key}")
    check(r["created_utc"].endswith("Z") and "T" in r["created_utc"], "created_utc ISO 8601")
    check("--zernike 11,0.05" in r["command_line"], "command_line")
    check(tomllib.loads(r["config"])["run"]["zernike"] == ["4,0.1", "11,0.05"],
          f"config text:\n{r['config']}")

with run("crop", "--samples", "64", "--crop", "33") as f:
    check(f["psf"].shape == (1, 33, 33), f"cropped shape {f['psf'].shape}")
    check(f["psf"].dtype == np.float32, "single precision stores float32")
    centre = f["psf"][0, 16, 16]
    check(abs(centre - 1) < 1e-6, f"peak normalization centre {centre}")

# Physical units: one dimension scale per axis of /psf (netCDF readers such as xarray take the
# axis's name from it), the arcsec and um centres as coordinates along /y and /x.
with run("physical", "--samples", "32", "--wavelength", "2um", "--diameter", "6.5m",
         "--fnumber", "20", "--pixel-pitch", "18um", "--crop", "16") as f:
    psf = f["psf"]
    scales = [[s.name for s in psf.dims[axis].values()] for axis in range(3)]
    check(scales == [["/frame"], ["/y"], ["/x"]], f"physical: /psf dimension scales {scales}")
    check(psf.attrs.get("coordinates") == "y_arcsec x_arcsec y_um x_um",
          f"physical: /psf coordinates {psf.attrs.get('coordinates')!r}")
    lod = psf.attrs["pixel_scale_lambda_over_d"]
    for name, axis, per in (("y_arcsec", "/y", psf.attrs["pixel_scale_arcsec"] / lod),
                            ("x_arcsec", "/x", psf.attrs["pixel_scale_arcsec"] / lod),
                            ("y_um", "/y", psf.attrs["pixel_pitch_m"] * 1e6 / lod),
                            ("x_um", "/x", psf.attrs["pixel_pitch_m"] * 1e6 / lod)):
        c = f[name]
        along = [s.name for s in c.dims[0].values()]
        check(along == [axis], f"physical: /{name} lies along {along}, want [{axis!r}]")
        check(c.attrs.get("CLASS") is None, f"physical: /{name} is a dimension scale")
        check(np.allclose(c[()], f[axis][()] * per, rtol=1e-12, atol=0),
              f"physical: /{name} is not {axis} in {c.attrs.get('units')}")
    check(f["x_arcsec"].attrs["units"] == "arcsec" and f["x_um"].attrs["units"] == "um",
          "physical: units of the coordinates")
with run("lod", "--samples", "16") as f:
    check("coordinates" not in f["psf"].attrs, "a lambda/D run names physical coordinates")

# A photon run's frames are photo-electrons scaled to the count: `normalization` says so on
# /psf and on /metrics, whatever --normalize says.
with run("photons", "--samples", "16", "--photons", "1e4", "--normalize", "sum",
         "--metrics", "strehl") as f:
    for path in ("psf", "metrics"):
        a = f[path].attrs
        check(a.get("normalization") == "photons",
              f"photons: /{path} normalization {a.get('normalization')!r}")
    check(f["psf"].attrs.get("units") == "photo-electrons",
          f"photons: /psf units {f['psf'].attrs.get('units')!r}")

# A spectrum is /spectrum's two datasets (an attribute would hold only some 8000 doubles).
with run("spectrum", "--samples", "16", "--wavelengths", "500nm:1,600nm:3", "--diameter", "1m",
         "--pixel-scale", "20mas", "--crop", "8") as f:
    s = f["spectrum"]
    check(s["wavelength_m"][()].tolist() == [5e-7, 6e-7],
          f"/spectrum/wavelength_m {s['wavelength_m'][()]}")
    check(s["weight"][()].tolist() == [0.25, 0.75], f"/spectrum/weight {s['weight'][()]}")
    check(s["wavelength_m"].attrs["units"] == "m", "/spectrum/wavelength_m units")
    check(abs(s.attrs["reference_wavelength_m"] - 5.75e-7) < 1e-20, "/spectrum reference")
    check(abs(f["psf"].attrs["wavelength_m"] - 5.75e-7) < 1e-20, "/psf wavelength_m")
    check("wavelengths_m" not in f["psf"].attrs, "no wavelength list on /psf")

# The effective config written into a file reads back as a config that reproduces it.
with run("again", "--samples", "48", "--grid", "linspace", "--obscuration", "0.25",
         "--zernike", "6,0.2", "--precision", "double") as f:
    first = f["psf"][0]
    config = f.attrs["config"]
cfg = os.path.join(work, "roundtrip.toml")
with open(cfg, "w") as out:
    out.write(config.replace(os.path.join(work, "again.h5"), os.path.join(work, "rt.h5")))
subprocess.run([psfsim, "run", "-c", cfg, "--force"], check=True, stdout=subprocess.DEVNULL)
with h5py.File(os.path.join(work, "rt.h5"), "r") as f:
    # FFTW_MEASURE may pick another algorithm in another process: equal to rounding, not bits.
    again = f["psf"][0]
    err = np.linalg.norm(again - first) / np.linalg.norm(first)
    check(err < 1e-13, f"config round trip reproduces the frame (relative L2 {err:.2e})")

if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print("output layout: all checks passed")
