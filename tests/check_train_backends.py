#!/usr/bin/env python3
"""An optical train's frames on the GPU equal the CPU's, for every kind of plane
(docs/coronagraphy.md): the same command with --backend cpu and --backend cuda, in double
(rel L2 <= 1e-10) and single precision (rel L2 <= 1e-4 of the frame, the float rounding of
matrices and products through up to four transforms), and their contrast and throughput
metrics likewise. Exit 77 where no CUDA backend can run.
Usage: check_train_backends.py PSFSIM_BINARY WORKDIR"""
import os
import subprocess
import sys

import h5py
import numpy as np

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
probe = subprocess.run([psfsim, "run", "--backend", "cuda", "--samples", "16", "--quiet",
                        "--force", "-o", os.path.join(work, "probe.h5")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if probe.returncode != 0:
    print(f"no CUDA backend to compare with: {probe.stderr.strip()}")
    sys.exit(77)

np.save(os.path.join(work, "mask.npy"),
        np.exp(-np.hypot(*np.mgrid[-20:21, -20:21]) ** 2 / 50.0) * -1 + 1)
CASES = {
    "lyot": ["--coronagraph", "lyot:3,0.001", "--lyot-stop", "0.9,0.2", "--lyot-spiders",
             "4,0.02"],
    "vortex": ["--coronagraph", "vortex:6", "--lyot-stop", "0.95"],
    "fqpm": ["--coronagraph", "fqpm", "--lyot-stop", "0.95"],
    # More frames than the GPU runs a mask's passes side by side for: one after another,
    # a spot's passes folded by the grids' symmetry.
    "vortex-40-frames": ["--coronagraph", "vortex:6", "--lyot-stop", "0.95"],
    "lyot-40-frames": ["--coronagraph", "lyot:4,0.001", "--lyot-stop", "0.9,0.2",
                       "--lyot-spiders", "4,0.02"],
    "spectrum-40-frames": ["--coronagraph", "lyot:3", "--lyot-stop", "0.9", "--band",
                           "500nm-600nm,3", "--diameter", "1m", "--pixel-scale", "30mas",
                           "--wavelength", "550nm"],
    "map": ["--coronagraph", f"map:{os.path.join(work, 'mask.npy')},0.1", "--lyot-stop", "0.9"],
    "distance": ["--plane", "distance:5mm", "--plane", "focal:lyot:2", "--plane", "pupil:0.9",
                 "--diameter", "10mm", "--wavelength", "1um", "--pixel-scale", "0.5lod"],
    "spectrum": ["--coronagraph", "lyot:3", "--lyot-stop", "0.9", "--band", "500nm-600nm,3",
                 "--diameter", "1m", "--pixel-scale", "30mas", "--wavelength", "550nm"],
}
COMMON = ["--samples", "64", "--crop", "48", "--vary", "Z7,0,0.02,3", "--metrics",
          "contrast,throughput,strehl", "--contrast-radii", "3,5,8"]
FRAMES = {name: "Z7,0,0.02,40" for name in CASES if name.endswith("-40-frames")}  # for --vary
failures = []


def frames(name, backend, precision):
    out = os.path.join(work, f"{name}_{backend}_{precision}.h5")
    args = CASES[name]
    if "--pixel-scale" not in args:
        args = args + ["--pixel-scale", "0.25lod"]
    common = list(COMMON)
    if name in FRAMES:
        common[common.index("--vary") + 1] = FRAMES[name]
    subprocess.run([psfsim, "run", "--backend", backend, "--precision", precision, "--force",
                    "--quiet", "-o", out, *common, *args], check=True)
    with h5py.File(out, "r") as f:
        return (f["psf"][...].astype(float),
                {k: f["metrics"][k][...].astype(float) for k in f["metrics"]})


for name in CASES:
    for precision, tolerance in (("double", 1e-10), ("single", 1e-4)):
        cpu, cpu_metrics = frames(name, "cpu", precision)
        gpu, gpu_metrics = frames(name, "cuda", precision)
        err = np.linalg.norm(gpu - cpu) / np.linalg.norm(cpu)
        ok = err <= tolerance
        for key, value in cpu_metrics.items():
            m_err = np.nanmax(np.abs(gpu_metrics[key] - value) / np.maximum(np.abs(value), 1e-300))
            ok = ok and m_err <= 10 * tolerance
            print(f"  {name} {precision} {key}: max rel {m_err:.1e}")
        print(("ok   " if ok else "FAIL ") + f"{name} {precision}: frames rel L2 {err:.2e}")
        if not ok:
            failures.append(f"{name} {precision}")
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
