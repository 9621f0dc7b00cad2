#!/usr/bin/env bash
# The next call laid out ahead (Backend::prepare_next) against the build before it, on the GPU
# machine in one call of the device tool: the CUDA tests, then the MFT to host at the targets'
# shapes (float32; B = 4096 is one call repeated, B = 16384 four calls a repeat, each compiled
# and laid out on the host) and a batch of 65536 random frames (16 calls), each build in turn,
# ROUNDS rounds; with DETAIL=1, then what bounds a random batch (below).
#
#   [ROUNDS=3] [DETAIL=1] bench/gpu-prepared-calls.sh BUILD BASELINE-PSFSIM
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/CMakeCache.txt, BUILD/gpu-libs
# and the baseline's psfsim.
set -u
build=$1
baseline=$2
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-prepared-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
psfsim=$build/apps/psfsim
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1

echo "== CUDA tests"
cuda_tests "$build/tests/psfsim_tests" || status=1

# PSFs/s of a batch of B frames, its source among RUN-ARGS: B over the median of
# /timings/total's repeats (a repeat's calls summed) 2 to 4 of 5. The first warms up, and the
# last is the one written to the file, which its writes would time instead.
batch_rate() {  # EXE N K B RUN-ARGS...
  local exe=$1 n=$2 k=$3 b=$4
  shift 4
  "$exe" run --backend cuda --propagation mft --samples "$n" --crop "$k" --precision single \
    --wisdom none --repeat 5 --quiet --force -o "$scratch/r.h5" "$@" 2>"$scratch/r.err" ||
    { echo "FAILED: $(tail -n 1 "$scratch/r.err")"; return; }
  "${python:-python3}" -c "
import h5py, numpy as np, sys
t = h5py.File(sys.argv[1])['timings/total'][()]
print(f'{int(sys.argv[2]) / np.median(t[1:-1]):.0f} PSFs/s')" "$scratch/r.h5" "$b"
}
# B random frames of Zernike 4-11, 0.05 waves RMS.
random_batch() { batch_rate "$1" "$2" "$3" "$4" --random "4-11,0.05,$4,1"; }

echo "== the MFT to host, float32, baseline then current (targets: 128/64 >= 3.1M, 64/32 >= 12M)"
for round in $(seq "${ROUNDS:-3}"); do
  for shape in "128 64 4096" "128 64 16384" "64 32 4096" "64 32 16384"; do
    for exe in "$baseline" "$psfsim"; do
      # shellcheck disable=SC2086
      echo "round $round N,K,B=$shape $exe: $(mft "$exe" $shape)"
    done
  done
  for shape in "128 64 65536" "64 32 65536"; do
    for exe in "$baseline" "$psfsim"; do
      # shellcheck disable=SC2086
      echo "round $round random N,K,B=$shape $exe: $(random_batch "$exe" $shape)"
    done
  done
done | tee "$out/mft.txt"
grep -q FAILED "$out/mft.txt" && status=1

# DETAIL=1: what bounds a random batch, the current build alone: the terms' degree, no frame
# leaving the device, the calls' size, and frames whose terms are compiled one at a time.
if [ "${DETAIL:-0}" = 1 ]; then
  echo "== 65536 frames, what bounds a random batch (current build)"
  for round in $(seq "${ROUNDS:-3}"); do
    for shape in "64 32" "128 64"; do
      # shellcheck disable=SC2086
      set -- $shape
      b=65536
      echo "round $round N=$1 random 4-11: $(random_batch "$psfsim" "$1" "$2" $b)"
      echo "round $round N=$1 random 4-6: $(batch_rate "$psfsim" "$1" "$2" $b --random "4-6,0.05,$b,1")"
      echo "round $round N=$1 random 4-11, metrics only: $(batch_rate "$psfsim" "$1" "$2" $b \
        --random "4-11,0.05,$b,1" --metrics strehl --store metrics)"
      echo "round $round N=$1 random 4-11, calls of 16384: $(batch_rate "$psfsim" "$1" "$2" $b \
        --random "4-11,0.05,$b,1" --chunk-frames 16384)"
      echo "round $round N=$1 vary Z4: $(batch_rate "$psfsim" "$1" "$2" $b --vary "Z4,-1,1,$b")"
    done
  done | tee "$out/random.txt"
  grep -q FAILED "$out/random.txt" && status=1
fi
exit "$status"
