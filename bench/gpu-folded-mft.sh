#!/usr/bin/env bash
# The MFT's folded products on the GPU machine, in one call of the device tool (issue 28's
# MFT rows): the CUDA tests; compute-sanitizer on MFT runs that fold (even and odd N, double,
# three channels, sum normalization) and one that does not (metrics); `psfsim run
# --propagation mft` to host at the targets' shapes with an earlier build interleaved (its
# in-process /timings/total); the MFT's stages one by one (psfsim_cuda_mft_bench, the
# baseline's beside it); then the Python module (bench/python-gpu.sh) and
# bench/python_latency.py.
#
#   [PYTEST=1] [PYTHON_BENCH=0] bench/gpu-folded-mft.sh [build-dir] [baseline-psfsim]
#       (defaults build-gpu and build-gpu/baseline/psfsim)
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/bench/psfsim_cuda_mft_bench,
# BUILD/CMakeCache.txt, BUILD/gpu-libs, BUILD/python-gpu-input (bench/python-gpu.sh stage)
# and the baseline (its psfsim, and its psfsim_cuda_mft_bench beside it).
set -u
build=${1:-build-gpu}
baseline=${2:-$build/baseline/psfsim}
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-folded-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python=${PYTHON:-python3}
psfsim=$build/apps/psfsim
status=0

echo "== CUDA tests"
cuda_tests "$build/tests/psfsim_tests" 'PhaseTable*:MftFold*' || status=1

echo "== compute-sanitizer: memcheck, racecheck, initcheck (MFT)"
cases=("--samples 64 --crop 32 --vary Z4,-1,1,24"
       "--samples 63 --crop 40 --zernike 7,0.2 --normalize sum"
       "--samples 128 --crop 64 --precision double --vary S2_1,-1,1,6"
       "--samples 48 --crop 24 --band 500nm-600nm,3 --diameter 1m --pixel-scale 2mas --vary Z4,-1,1,8"
       "--samples 64 --crop 32 --vary Z4,-1,1,8 --metrics strehl")
for tool in memcheck racecheck initcheck; do
  # memcheck on every case; racecheck and initcheck on the first two
  for case in "${cases[@]}"; do
    [ "$tool" != memcheck ] && [ "$case" != "${cases[0]}" ] && [ "$case" != "${cases[1]}" ] && continue
    # shellcheck disable=SC2086
    sanitize "$tool" "$psfsim" --propagation mft $case
  done
done | tee "$out/sanitizer.txt"
grep -q FAILED "$out/sanitizer.txt" && status=1

echo "== psfsim run --propagation mft, frames to host (float32), interleaved"
for round in 1 2; do
  for shape in "128 64 4096" "128 64 16384" "64 32 4096" "64 32 16384" "256 64 4096"; do
    set -- $shape
    [ -x "$baseline" ] && echo "round $round N=$1 K=$2 B=$3 baseline: $(mft "$baseline" "$@")"
    echo "round $round N=$1 K=$2 B=$3 current:  $(mft "$psfsim" "$@")"
  done
done | tee "$out/mft-engine.txt"
grep -q FAILED "$out/mft-engine.txt" && status=1

echo "== the MFT's stages, 4096 frames (psfsim_cuda_mft_bench; the baseline's beside it)"
base_bench=$(dirname "$baseline")/psfsim_cuda_mft_bench
benches=("$build/bench/psfsim_cuda_mft_bench")
[ -x "$base_bench" ] && benches=("$base_bench" "${benches[@]}")
OUT="$out" bench/gpu-mft-stages.sh "$build" "${benches[@]}" || status=1

if [ "${PYTHON_BENCH:-1}" = 1 ]; then
  echo "== Python"
  # PYTEST=1: the module's tests too (bench/python-gpu.sh test), GPU ones included.
  if bench/python-gpu.sh "$([ "${PYTEST:-0}" = 1 ] && echo test || echo build)" "$build" \
    >"$out/python-build.txt" 2>&1; then
    tail -n 3 "$out/python-build.txt"
    PYTHONPATH=$PWD/$build/python-gpu PSFSIM_EXECUTABLE=$PWD/$psfsim \
      "$python" bench/python_latency.py -o "$out/python-latency.md" || status=1
  else
    status=1
    tail -n 20 "$out/python-build.txt"
  fi
fi
exit $status
