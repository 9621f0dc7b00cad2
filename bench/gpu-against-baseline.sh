#!/usr/bin/env bash
# The CUDA build against a psfsim built from an earlier commit (the baseline), on the GPU
# machine, in one call of the device tool with both carried: the CUDA tests, one PSF to host
# for N = 32 ... 256 with each binary, interleaved, and a CUDA process's whole wall time beside
# the parts that are not psfsim's (the bare context and pinned memory of
# psfsim_cuda_start_bench, eager module loading, the CPU backend's process).
#
#   bench/gpu-against-baseline.sh [build-dir] [baseline-psfsim]
#       (defaults build-gpu and build-gpu/baseline/psfsim)
set -u
build=${1:-build-gpu}
baseline=${2:-$build/baseline/psfsim}
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-baseline-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
psfsim=$build/apps/psfsim
status=0

echo "== CUDA tests"
cuda_tests "$build/tests/psfsim_tests" || status=1

echo "== one PSF to host, --repeat 3000, medians, interleaved"
for round in 1 2 3; do
  for precision in single double; do
    for n in 32 64 128 256; do
      echo "round $round $precision N=$n baseline: $(one_psf "$baseline" "$n" "$precision")"
      echo "round $round $precision N=$n current:  $(one_psf "$psfsim" "$n" "$precision")"
    done
  done
done | tee "$out/one-psf.txt"

wall() {  # command...: one whole-process wall time in seconds
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.4f\\n\", b - a }"
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "== a CUDA process, one PSF at N = 128, whole wall time, median of 11 (interleaved)"
start_bench=$build/bench/psfsim_cuda_start_bench
: >"$scratch/cpu"; : >"$scratch/cuda"; : >"$scratch/base"; : >"$scratch/eager"; : >"$scratch/ctx"
for i in $(seq 11); do
  wall "$psfsim" run --backend cpu --samples 128 --quiet -o "$scratch/p.h5" --force >>"$scratch/cpu"
  wall "$psfsim" run --backend cuda --samples 128 --quiet -o "$scratch/p.h5" --force >>"$scratch/cuda"
  wall "$baseline" run --backend cuda --samples 128 --quiet -o "$scratch/p.h5" --force >>"$scratch/base"
  CUDA_MODULE_LOADING=EAGER wall "$psfsim" run --backend cuda --samples 128 --quiet \
    -o "$scratch/p.h5" --force >>"$scratch/eager"
  [ -x "$start_bench" ] && wall "$start_bench" >>"$scratch/ctx"
done
{
  echo "cpu backend:              $(median <"$scratch/cpu") s"
  echo "cuda backend:             $(median <"$scratch/cuda") s"
  echo "cuda backend (baseline):  $(median <"$scratch/base") s"
  echo "cuda, eager modules:      $(median <"$scratch/eager") s"
  [ -s "$scratch/ctx" ] && echo "bare CUDA process (context, two cuFFT plans, pinned memory): $(median <"$scratch/ctx") s"
  [ -x "$start_bench" ] && "$start_bench"
  "$psfsim" run --backend cuda --samples 128 -o "$scratch/p.h5" --force 2>&1 | tail -n 6
} | tee "$out/process.txt"
exit $status
