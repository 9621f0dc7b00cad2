#!/usr/bin/env python3
"""A batch larger than one chunk streams correctly: the file written in chunks of 3 frames
equals the one written in one chunk, and frames on both sides of each chunk boundary equal
single runs of the same terms. Also: --random is reproducible from its seed through the CLI,
and CSV frames land in /parameters. Usage: check_batch_streaming.py PSFSIM WORKDIR"""
import os
import subprocess
import sys

import h5py
import numpy as np

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []
common = ["--backend", "cpu", "--samples", "40", "--pad-factor", "2.5", "--crop", "50",
          "--precision", "double", "--quiet", "--force"]


def run(name, *args):
    out = os.path.join(work, name + ".h5")
    subprocess.run([psfsim, "run", *common, *args, "-o", out], check=True,
                   stdout=subprocess.DEVNULL)
    return out


def frames(path):
    with h5py.File(path, "r") as f:
        return f["psf"][()], {k: f["parameters"][k][()] for k in f["parameters"]}


chunked, chunked_params = frames(run("chunked", "--vary", "Z4,-1,1,10", "--chunk-frames", "3",
                                     "--zernike", "11,0.1"))
whole, _ = frames(run("whole", "--vary", "Z4,-1,1,10", "--zernike", "11,0.1"))
if chunked.shape != (10, 50, 50):
    failures.append(f"shape {chunked.shape}")
def rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


# Separate processes may get different FFTW_MEASURE plans: equal to rounding, not bits.
if rel(chunked, whole) > 1e-13:
    failures.append(f"chunked and whole files differ by {rel(chunked, whole):.2e}")
for i in (0, 2, 3, 5, 6, 8, 9):  # both sides of the chunk boundaries at 3, 6, 9
    z4 = chunked_params["Z4"][i]
    single, _ = frames(run(f"single{i}", "--zernike", f"4,{z4!r}", "--zernike", "11,0.1"))
    err = rel(chunked[i], single[0])
    if err > 1e-13:
        failures.append(f"frame {i} differs from its single run by {err:.2e}")
if np.array_equal(chunked[0], chunked[1]):
    failures.append("frames 0 and 1 are identical")

a, pa = frames(run("random_a", "--random", "4-8,0.1,6,5"))
b, pb = frames(run("random_b", "--random", "4-8,0.1,6,5"))
c, pc = frames(run("random_c", "--random", "4-8,0.1,6,6"))
if not (rel(a, b) < 1e-13 and all(np.array_equal(pa[k], pb[k]) for k in pa)):
    failures.append("--random with the same seed differs between runs")
if np.array_equal(pa["Z5"], pc["Z5"]):
    failures.append("--random with another seed gives the same draws")

csv = os.path.join(work, "frames.csv")
with open(csv, "w") as out:
    out.write("Z4,S2_1\n0.1,0.5\n-0.2,0.0\n0.3,-0.5\n")
_, pcsv = frames(run("csv", "--frames", csv))
if pcsv["Z4"].tolist() != [0.1, -0.2, 0.3] or pcsv["S2_1"].tolist() != [0.5, 0.0, -0.5]:
    failures.append(f"CSV parameters {pcsv}")

if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print("batch streaming: all checks passed")
