#!/usr/bin/env bash
# Whole-process wall time of `psfsim run` on each backend over a grid of frames x pupil size,
# the measurements --backend auto's choice is held to (docs/performance.md). Each cell is the
# median of three processes: random Zernikes 4-11, K = 64 frames written to a file, float32.
#
#   bench/auto-grid.sh [build-dir] [backends]     (default build, "cpu cuda auto")
#
# Prints one line per cell: N B backend median_s (and the backend auto took).
set -euo pipefail
build=${1:-build}
backends=${2:-cpu cuda auto}
psfsim=$PWD/$build/apps/psfsim
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf "%6s %6s %-6s %10s %s\n" N B backend median_s chosen
for n in ${SIZES:-32 64 128 256 512}; do
  for b in ${FRAMES:-1 16 256 4096 65536}; do
    for backend in $backends; do
      times=()
      for _ in 1 2 3; do
        start=$("$python" -c 'import time; print(time.perf_counter_ns())')
        "$psfsim" run --backend "$backend" --samples "$n" --crop 64 \
          --random "4-11,0.05,$b,1" --quiet --force -o "$scratch/g.h5" >/dev/null
        end=$("$python" -c 'import time; print(time.perf_counter_ns())')
        times+=($((end - start)))
      done
      chosen=$("$python" -c "import h5py; print(h5py.File('$scratch/g.h5')['timings'].attrs['backend'])")
      median=$(printf "%s\n" "${times[@]}" | sort -n | sed -n 2p)
      printf "%6d %6d %-6s %10.4f %s\n" "$n" "$b" "$backend" "$(echo "$median" | awk '{print $1/1e9}')" "$chosen"
    done
  done
done
