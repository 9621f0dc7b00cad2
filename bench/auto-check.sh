#!/usr/bin/env bash
# --backend auto's two cases (docs/performance.md): the whole-process time of one 128^2 PSF,
# `psfsim run --samples 128 -o x.h5`, with auto, cpu and cuda side by side (median of 11
# processes each, interleaved), and the backend auto takes for a batch of 1e5 frames.
#
#   bench/auto-check.sh [build-dir]      (default build)
set -euo pipefail
build=${1:-build}
psfsim=$PWD/$build/apps/psfsim
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$python" - "$psfsim" "$scratch" <<'PY'
import statistics, subprocess, sys, time
import h5py
psfsim, scratch = sys.argv[1], sys.argv[2]
def wall(*args):
    t0 = time.perf_counter()
    subprocess.run([psfsim, "run", *args, "--quiet", "--force", "-o", f"{scratch}/x.h5"], check=True)
    return time.perf_counter() - t0
times = {b: [] for b in ("auto", "cpu", "cuda")}
for _ in range(11):
    for b in times:
        times[b].append(wall("--samples", "128", "--backend", b))
median = {b: statistics.median(v) for b, v in times.items()}
for b, m in median.items():
    print(f"one PSF, N = 128, whole process, --backend {b}: median {m:.4f} s "
          f"(min {min(times[b]):.4f}, max {max(times[b]):.4f})")
print(f"auto / cpu = {median['auto'] / median['cpu']:.3f}")
t = wall("--samples", "128", "--crop", "64", "--random", "4-11,0.05,100000,1")
with h5py.File(f"{scratch}/x.h5") as f:
    print(f"1e5 frames, N = 128, K = 64, --backend auto: {f['psf'].attrs['backend_choice']}; "
          f"whole process {t:.2f} s")
PY
