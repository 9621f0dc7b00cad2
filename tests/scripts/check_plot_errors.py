#!/usr/bin/env python3
"""The plot scripts fail with a non-zero exit and a clear one-line message on a missing file,
a file that is not HDF5, and a file without the dataset they plot.
Usage: check_plot_errors.py PLOT_PSF PLOT_SWEEP PLOT_METRICS WORKDIR"""
import os
import subprocess
import sys

import h5py
import numpy as np

plot_psf, plot_sweep, plot_metrics, work = sys.argv[1:]
os.makedirs(work, exist_ok=True)
failures = []

empty = os.path.join(work, "no_datasets.h5")
with h5py.File(empty, "w") as f:
    f.create_dataset("other", data=np.zeros(3))
not_hdf5 = os.path.join(work, "not_hdf5.h5")
with open(not_hdf5, "w") as f:
    f.write("plain text\n")
missing = os.path.join(work, "does_not_exist.h5")

cases = [
    (plot_psf, missing, "no such file"),
    (plot_psf, not_hdf5, "not a readable HDF5 file"),
    (plot_psf, empty, "no /psf"),
    (plot_sweep, missing, "no such file"),
    (plot_sweep, not_hdf5, "not a readable HDF5 file"),
    (plot_sweep, empty, "no /sweep"),
    (plot_metrics, missing, "no such file"),
    (plot_metrics, not_hdf5, "not a readable HDF5 file"),
    (plot_metrics, empty, "no /metrics"),
]
env = dict(os.environ, MPLBACKEND="Agg")
for script, path, expected in cases:
    out = os.path.join(work, "should_not_exist.png")
    r = subprocess.run([sys.executable, script, path, "-o", out], env=env,
                       capture_output=True, text=True)
    name = f"{os.path.basename(script)} {os.path.basename(path)}"
    if r.returncode == 0:
        failures.append(f"{name}: exit 0, expected a failure")
    if expected not in r.stderr or path not in r.stderr:
        failures.append(f"{name}: stderr {r.stderr.strip()!r} lacks {expected!r} and the path")
    if "Traceback" in r.stderr:
        failures.append(f"{name}: a traceback instead of a message")
    if os.path.exists(out):
        failures.append(f"{name}: wrote {out} anyway")
        os.remove(out)

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
