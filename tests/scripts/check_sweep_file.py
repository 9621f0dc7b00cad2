#!/usr/bin/env python3
"""Checks a file written by psfsim sweep against docs/spec.md §3 with h5py alone: one row of /sweep
per (backend, precision, samples, batch), consistent timing statistics, M = 2N.
Usage: check_sweep_file.py SWEEP.h5 --sizes 16,32 --batches 1,4 --backends cpu
                           --precisions single --repeats 3"""
import argparse
import itertools
import math
import sys

import h5py
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("file")
p.add_argument("--sizes", required=True)
p.add_argument("--batches", required=True)
p.add_argument("--backends", required=True)
p.add_argument("--precisions", required=True)
p.add_argument("--repeats", type=int, required=True)
args = p.parse_args()
sizes = [int(s) for s in args.sizes.split(",")]
batches = [int(b) for b in args.batches.split(",")]
backends = args.backends.split(",")
precisions = args.precisions.split(",")

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def text(v):
    return (v.decode() if isinstance(v, bytes) else str(v)).rstrip("\x00")


FIELDS = {"backend": "S", "precision": "S", "samples": "i4", "padded_size": "i4", "batch": "i4",
          "crop": "i4", "repeats": "i4", "pupil_median_s": "f8", "fft_median_s": "f8",
          "intensity_median_s": "f8", "transfer_median_s": "f8", "fused_stages": "S",
          "fused_median_s": "f8", "total_median_s": "f8",
          "total_min_s": "f8", "total_max_s": "f8", "psfs_per_second": "f8"}

with h5py.File(args.file, "r") as f:
    if "sweep" not in f:
        sys.exit(f"FAIL: {args.file} has no /sweep")
    table = f["sweep"][()]

names = table.dtype.names or ()
for field, kind in FIELDS.items():
    if field not in names:
        failures.append(f"/sweep lacks field {field}")
        continue
    dt = table.dtype[field]
    want = {"S": dt.kind == "S", "i4": dt == np.dtype("<i4"), "f8": dt == np.dtype("<f8")}[kind]
    check(want, f"/sweep field {field} has type {dt}, expected {kind}")
if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)

expected = set(itertools.product(backends, precisions, sizes, batches))
got = [(text(r["backend"]), text(r["precision"]), int(r["samples"]), int(r["batch"]))
       for r in table]
check(len(table) == len(expected),
      f"{len(table)} rows, expected {len(expected)} (one per backend, precision, N, batch)")
check(len(set(got)) == len(got), f"duplicate combinations: {sorted(got)}")
check(set(got) == expected, f"combinations {sorted(set(got))}, expected {sorted(expected)}")

for r, key in zip(table, got):
    label = "row backend={} precision={} N={} batch={}".format(*key)
    med, lo, hi = float(r["total_median_s"]), float(r["total_min_s"]), float(r["total_max_s"])
    check(math.isfinite(med) and med > 0, f"{label}: total_median_s = {med}")
    check(lo <= med <= hi, f"{label}: total min/median/max {lo} / {med} / {hi} out of order")
    rate = float(r["psfs_per_second"])
    want = r["batch"] / med if med > 0 else float("nan")
    check(math.isclose(rate, want, rel_tol=1e-6),
          f"{label}: psfs_per_second = {rate}, batch / total_median_s = {want}")
    check(int(r["padded_size"]) == 2 * int(r["samples"]),
          f"{label}: padded_size {r['padded_size']} != 2 * samples (default pad factor 2)")
    check(int(r["repeats"]) == args.repeats, f"{label}: repeats {r['repeats']} != {args.repeats}")
    # no --crop: whole frames, recorded as M (like /psf's crop attribute) or 0
    check(int(r["crop"]) in (0, int(r["padded_size"])), f"{label}: crop {r['crop']} without --crop")
    if key[0] == "cpu":
        for stage in ("pupil", "fft", "intensity"):
            v = float(r[f"{stage}_median_s"])
            check(math.isfinite(v) and 0 < v <= hi, f"{label}: {stage}_median_s = {v}")
        check(math.isnan(r["transfer_median_s"]),
              f"{label}: transfer_median_s = {r['transfer_median_s']}, NaN expected on the CPU")
        check(text(r["fused_stages"]) == "" and math.isnan(r["fused_median_s"]),
              f"{label}: fused stages {text(r['fused_stages'])!r}, none expected on the CPU")
    else:  # the GPU's graph: one fused stage, or the stages apart with --stage-timing
        fused = float(r["fused_median_s"])
        check(text(r["fused_stages"]) == "" or (math.isfinite(fused) and 0 < fused <= hi),
              f"{label}: fused {text(r['fused_stages'])!r} {fused}")

for m in failures:
    print("FAIL:", m)
if not failures:
    print(f"ok: {len(table)} rows in {args.file}")
sys.exit(1 if failures else 0)
