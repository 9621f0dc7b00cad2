#!/usr/bin/env bash
# fft, mft and auto side by side on a grid of (N, K), from one `psfsim sweep` (SPEC §10:
# auto never more than 1.1x slower than the faster of the two; the MFT's PSFs/s).
#
#   bench/propagation-grid.sh BUILD_DIR BACKEND [SIZES [CROPS [BATCH]]]
#   e.g. bench/propagation-grid.sh build cpu 32,64,128,256 16,32,64,128 64
set -euo pipefail
build=$1
backend=$2
sizes=${3:-32,64,128,256}
crops=${4:-16,32,64,128}
batch=${5:-64}
out=$(mktemp -d)/grid.h5
trap 'rm -rf "$(dirname "$out")"' EXIT
"$build/apps/psfsim" sweep --backends "$backend" --sizes "$sizes" --crop "$crops" \
  --propagation fft,mft,auto --batch "$batch" --repeat 7 --quiet -o "$out"
/usr/bin/python3 - "$out" <<'PY'
import sys
import h5py
rows = h5py.File(sys.argv[1], "r")["sweep"][()]
times = {}
for r in rows:
    key = (int(r["samples"]), int(r["crop"]))
    times.setdefault(key, []).append((r["propagation"].decode(), float(r["total_median_s"]),
                                      float(r["psfs_per_second"])))
print(f"{'N':>5} {'K':>5} {'fft PSFs/s':>12} {'mft PSFs/s':>12} {'auto':>5} {'auto/best':>10}")
worst = 0.0
for (n, k), entries in sorted(times.items()):
    # The sweep lists fft, mft, auto in that order; auto's row names what it chose. Where K
    # exceeds M only the explicit mft row exists.
    if len(entries) < 3:
        print(f"{n:5d} {k:5d} {'-':>12} {entries[0][2]:12.0f}  (K > M: mft only)")
        continue
    fft = [e for e in entries[:-1] if e[0] == "fft"]
    mft = [e for e in entries[:-1] if e[0] == "mft"]
    auto = entries[-1]
    best = min(e[1] for e in entries[:-1])
    ratio = auto[1] / best
    worst = max(worst, ratio)
    f = f"{fft[0][2]:12.0f}" if fft else f"{'-':>12}"
    m = f"{mft[0][2]:12.0f}" if mft else f"{'-':>12}"
    print(f"{n:5d} {k:5d} {f} {m} {auto[0]:>5} {ratio:10.2f}")
print(f"worst auto/best: {worst:.2f} (target <= 1.1)")
PY
