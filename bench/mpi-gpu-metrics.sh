#!/usr/bin/env bash
# Two GPUs under MPI against one (docs/spec.md §10: >= 1.8x with --store metrics), on the GPU
# machine of kind nvidia-h200-x2: the same `psfsim run --store metrics` (N = 128, M = 256,
# float32, FRAMES random Zernike frames) as one process and as `mpirun -n 2`, alternating,
# ROUNDS times. Two figures: the compute rate psfsim prints (the slowest rank's) and the wall
# time of the whole command, file included. Medians. Then two ranks as mpirun binds them by
# default (a core each), once, for the record.
#
#   bench/mpi-gpu-metrics.sh [build-dir]     (default build-gpu; FRAMES 1000000, ROUNDS 3)
set -euo pipefail
build=${1:-build-gpu}
psfsim=$build/apps/psfsim
frames=${FRAMES:-1000000}
rounds=${ROUNDS:-3}
scratch=$(mktemp -d /dev/shm/psfsim-mpi-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run=(run --backend cuda --samples 128 --random "4-15,0.05,$frames,1"
     --metrics strehl,centroid,fwhm,ee,rms_wavefront --store metrics --quiet --force)
# Unbound: mpirun binds each of two ranks to one core by default, and one core cannot
# compile, draw and write for an H200 (docs/scaling.md).
mpi=(mpirun -n 2 --bind-to none --oversubscribe -x LD_LIBRARY_PATH)

wall() {  # the command's stdout, then "wall SECONDS"
  local t0 t1
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "wall %.4f\n", b - a }'
}

: >"$scratch/rows"
for ((i = 1; i <= rounds; i++)); do
  wall "$psfsim" "${run[@]}" -o "$scratch/one.h5" |
    awk -v r="$i" '/^PSFs\/s/ {rate = $3} /^wall/ {print r, "one", rate, $2}' >>"$scratch/rows"
  wall "${mpi[@]}" "$psfsim" "${run[@]}" -o "$scratch/two.h5" |
    awk -v r="$i" '/^all/ {rate = $2} /^wall/ {print r, "two", rate, $2}' >>"$scratch/rows"
  tail -n 2 "$scratch/rows"
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for who in one two; do
  rate=$(awk -v w="$who" '$2 == w {print $3}' "$scratch/rows" | median)
  secs=$(awk -v w="$who" '$2 == w {print $4}' "$scratch/rows" | median)
  awk -v w="$who" -v r="$rate" -v s="$secs" -v f="$frames" \
    'BEGIN { printf "%-4s GPU(s): compute %10.0f PSFs/s, wall %7.3f s = %9.0f PSFs/s end to end\n", w, r, s, f / s }'
done
wall mpirun -n 2 --oversubscribe -x LD_LIBRARY_PATH "$psfsim" "${run[@]}" -o "$scratch/bound.h5" |
  awk '/^all/ {rate = $2} /^wall/ {printf "two GPU(s), a core each (mpirun default binding): compute %10.0f PSFs/s, wall %7.3f s\n", rate, $2}'
"$psfsim" info | grep -iE "mpi|device" || true
