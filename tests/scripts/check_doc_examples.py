#!/usr/bin/env python3
"""Runs every ```python example of a doc page (docs/output.md) as it is written there, so
that the page and what the files hold cannot drift apart. Each example runs in a folder
where the file names it reads are files psfsim has just written; an example that reads
out.h5 runs twice, on a lambda/D file and on a file in physical units (arcsec). After an
example that opened an xarray Dataset `ds`, its axes are checked against the file as h5py
reads it: dimensions (frame, y, x), x and y in lambda/D, the physical centres as coordinates
along them. xarray and h5netcdf are Debian dependencies (python3-xarray python3-h5netcdf):
without them this fails.
Usage: check_doc_examples.py PSFSIM DOC.md WORKDIR"""
import contextlib
import io
import os
import re
import subprocess
import sys
import traceback

import matplotlib
matplotlib.use("Agg")  # the examples plot; no display is needed
import matplotlib.pyplot as plt  # noqa: E402
import h5py  # noqa: E402
import numpy as np  # noqa: E402

try:
    import h5netcdf  # noqa: F401
    import xarray  # noqa: F401
except ImportError as e:
    sys.exit(f"FAIL: {e.name} is not importable by {sys.executable}; install python3-xarray "
             "python3-h5netcdf (Debian; .ci/install-deps lists them)")

psfsim, doc, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def psfsim_run(*args):
    subprocess.run([psfsim, *args, "--force"], check=True, cwd=work, stdout=subprocess.DEVNULL)


# The files the examples read, under the names the page gives them. out.h5 has two variants.
psfsim_run("run", "--backend", "cpu", "--samples", "32", "--vary", "Z4,-0.5,0.5,3",
           "--zernike", "11,0.05", "-o", "lod.h5")
# README.md's and physical-optics.md's NIRCam example: 31 mas pixels, MFT.
psfsim_run("run", "--backend", "cpu", "--wavelength", "2um", "--diameter", "6.5m",
           "--pixel-scale", "31mas", "--crop", "64", "-o", "nircam.h5")
psfsim_run("export", "nircam.h5", "--fits", "nircam.fits")
psfsim_run("run", "--backend", "cpu", "--samples", "32", "--random", "4-8,0.05,20,1",
           "--zernike", "4,0.02", "--metrics", "strehl,fwhm,ee", "--ee-radii", "1,2",
           "--store", "metrics", "-o", "mc.h5")
psfsim_run("run", "--backend", "cpu", "--band", "500nm-700nm,3", "--fnumber", "20",
           "--pixel-pitch", "18um", "--crop", "48", "--photons", "1e5", "--read-noise", "5",
           "--noise-seed", "1", "-o", "band.h5")
psfsim_run("sweep", "--backends", "cpu", "--sizes", "16,32", "--repeat", "2", "-o", "sweep.h5")
VARIANTS = {
    "out.h5": {"lambda/D": "lod.h5", "arcsec": "nircam.h5"},
    "nircam.h5": {"arcsec": "nircam.h5"},
    "nircam.fits": {"arcsec": "nircam.fits"},
    "mc.h5": {"metrics": "mc.h5"},
    "band.h5": {"photons, um": "band.h5"},
    "sweep.h5": {"sweep": "sweep.h5"},
}

with open(doc, encoding="utf-8") as f:
    page = f.read()
examples = [(page.count("\n", 0, m.start()) + 2, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```", page, re.MULTILINE | re.DOTALL)]
check(examples, f"{doc}: no ```python examples found")


def check_xarray_axes(ds, path, where):
    """The Dataset's axes against /psf, /x, /y and the physical coordinates read with h5py."""
    with h5py.File(path, "r") as f:
        psf = f["psf"]
        check(ds.psf.dims == ("frame", "y", "x"), f"{where}: /psf dims {ds.psf.dims}")
        check(np.array_equal(ds.x.values, f["x"][()]) and np.array_equal(ds.y.values, f["y"][()]),
              f"{where}: x and y are not /x and /y (lambda/D)")
        centre = f["psf"][:, psf.shape[1] // 2, psf.shape[2] // 2]
        check(np.array_equal(ds.psf.sel(x=0, y=0).values, centre),
              f"{where}: psf.sel(x=0, y=0) is not the centre pixel of every frame")
        a = psf.attrs
        physical = [n for n in ("x_arcsec", "y_arcsec", "x_um", "y_um") if n in f]
        check(sorted(a.get("coordinates", "").split()) == sorted(physical),
              f"{where}: /psf coordinates {a.get('coordinates')!r}, file has {physical}")
        for name in physical:
            axis = name[0]
            check(name in ds.coords and ds[name].dims == (axis,),
                  f"{where}: {name} is not a coordinate along {axis}")
            per = (a["pixel_scale_arcsec"] if name.endswith("arcsec") else
                   a["pixel_pitch_m"] * 1e6) / a["pixel_scale_lambda_over_d"]
            check(np.allclose(ds[name].values, f[axis][()] * per, rtol=1e-12, atol=0),
                  f"{where}: {name} is not {axis} in its units")
        check("arcsec" not in str(ds.psf.dims) and "um" not in str(ds.psf.dims),
              f"{where}: a physical axis became a dimension")


ran = set()
for line, code in examples:
    names = sorted(set(re.findall(r"[\"']([\w.-]+\.(?:h5|fits))[\"']", code)))
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        failures.append(f"{doc}:{line}: the example reads {', '.join(unknown)}, which this test "
                        f"does not make; add it to VARIANTS in {os.path.basename(__file__)}")
        continue
    variants = [{}]
    for n in names:
        variants = [dict(v, **{n: (label, file)}) for v in variants
                    for label, file in VARIANTS[n].items()]
    for chosen in variants:
        where = f"{doc}:{line}" + "".join(f" ({n} = {lab})" for n, (lab, _) in chosen.items())
        folder = os.path.join(work, f"example-{line}-" +
                              "-".join(re.sub(r"\W", "", lab) for lab, _ in chosen.values()))
        os.makedirs(folder, exist_ok=True)
        for n, (_, file) in chosen.items():
            link = os.path.join(folder, n)
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.join(os.path.abspath(work), file), link)
        namespace = {"__name__": "__doc_example__"}
        output = io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(output):
                exec(compile(code, where, "exec"), namespace)
        except Exception:
            failures.append(f"{where} fails:\n{code}\n{traceback.format_exc()}")
            continue
        finally:
            os.chdir(here)
            plt.close("all")
        ran.add(where)
        print(f"ok: {where}")
        if "ds" in namespace and "out.h5" in chosen:
            check_xarray_axes(namespace["ds"], os.path.join(work, chosen["out.h5"][1]), where)
            namespace["ds"].close()

# The page's xarray and h5py axis examples must have run on both kinds of file.
for kind in ("lambda/D", "arcsec"):
    check(sum(f"(out.h5 = {kind})" in w for w in ran) >= 3,
          f"{doc}: fewer than three examples ran on the {kind} out.h5")
if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print(f"{doc}: {len(ran)} example runs passed")
