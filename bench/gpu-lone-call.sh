#!/usr/bin/env bash
# One call of the device tool for a change to a lone call's path (a Python call of one PSF):
# the CUDA tests, compute-sanitizer's memcheck over the backend contract's cuda cases, the
# module's pytest suite on the GPU (bench/python-gpu.sh test); then psfsim_cuda_lone_call_bench
# (a lone call step by step), and bench/python_lone_call.py and bench/python_latency.py with
# this build's module and an earlier build's, interleaved
# (bench/gpu-python-against-baseline.sh). CHECKS=0 leaves out the tests, MEMCHECK=0 only
# compute-sanitizer (the longest check), LATENCY=0 python_latency.py.
#
#   [ROUNDS=2] [CHECKS=1] [MEMCHECK=1] [LATENCY=1] bench/gpu-lone-call.sh BUILD BASE
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/bench/psfsim_cuda_lone_call_bench,
# BUILD/CMakeCache.txt, BUILD/gpu-libs, BUILD/python-gpu-input (bench/gpu-stage.sh BUILD), and
# BASE/python-gpu-input with BASE/psfsim
# (bench/python-gpu.sh stage in the earlier build, its psfsim beside it), or BASE.tar.xz holding
# the folder BASE (and BUILD/python-gpu-input.tar.xz likewise): the carry's size limit is
# smaller than two builds' static libraries.
set -u
build=${1:?usage: bench/gpu-lone-call.sh BUILD BASE}
base=${2:?usage: bench/gpu-lone-call.sh BUILD BASE}
out=${OUT:-$PWD/gpu-lone-call-out}
mkdir -p "$out"
[ -d "$base" ] || [ ! -f "$base.tar.xz" ] || tar -xJf "$base.tar.xz" -C "$(dirname "$base")"
input=$build/python-gpu-input
[ -d "$input" ] || [ ! -f "$input.tar.xz" ] || tar -xJf "$input.tar.xz" -C "$build"
source bench/gpu-env.sh
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1

if [ "${CHECKS:-1}" = 1 ]; then
  echo "== CUDA tests"
  cuda_tests "$build/tests/psfsim_tests" || status=1

  if [ "${MEMCHECK:-1}" = 1 ]; then
    echo "== compute-sanitizer memcheck: the backend contract's cuda cases"
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    "$sanitizer" --tool memcheck --error-exitcode 99 "$build/tests/psfsim_tests" \
      --gtest_filter='*BackendContract*cuda*' --gtest_brief=1 >"$out/memcheck.txt" 2>&1 ||
      status=1
    grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.txt" | tail -n 4
  fi

  echo "== the module's tests on the GPU"
  bench/python-gpu.sh test "$build" >"$out/python-tests.txt" 2>&1 || status=1
  grep -E "passed|failed|error" "$out/python-tests.txt" | tail -n 5
fi

echo "== a lone call, step by step ($build)"
"$build/bench/psfsim_cuda_lone_call_bench" || status=1

echo "== the modules, $base's beside $build's"
scripts="bench/python_lone_call.py"
[ "${LATENCY:-1}" = 1 ] && scripts="$scripts bench/python_latency.py"
OUT=$out SCRIPTS=$scripts bench/gpu-python-against-baseline.sh "$build" "$base" || status=1
exit $status
