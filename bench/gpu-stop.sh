#!/usr/bin/env bash
# What a stop owes on the GPU machine, in one call of the device tool: the GPU check
# (bench/gpu-check.sh: CUDA tests, compute-sanitizer, latency, batches, the size sweep, the
# writer against dd), the open targets beside a baseline build (bench/gpu-targets.sh, the floor
# under one PSF included), then the Python module's tests there (bench/python-gpu.sh test).
# Each step has its own time limit, so that one that hangs leaves time to the others, and the
# logs so far are packed into $OUT/stop.tar.xz after each step (the device tool brings back few
# files, and none from a call that runs out of time).
#
#   [ROUNDS=3] bench/gpu-stop.sh BUILD BASELINE-PSFSIM
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/CMakeCache.txt, BUILD/gpu-libs,
# BUILD/python-gpu-input.tar.xz (bench/gpu-stage.sh, then packed), the baseline's psfsim and
# BUILD/bench/psfsim_cuda_delivery_floor_bench.
set -u
build=${1:?usage: bench/gpu-stop.sh BUILD BASELINE-PSFSIM}
baseline=${2:?usage: bench/gpu-stop.sh BUILD BASELINE-PSFSIM}
out=${OUT:-$PWD/gpu-stop-out}
logs=$(mktemp -d)/stop
mkdir -p "$out" "$logs"
[ -f "$build/python-gpu-input.tar.xz" ] && tar -xJf "$build/python-gpu-input.tar.xz" -C "$build"
status=0
step() {  # NAME SECONDS COMMAND...
  local name=$1 limit=$2 rc
  shift 2
  local start=$SECONDS
  OUT=$logs/$name timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  rc=$?
  echo "== $name: rc $rc in $((SECONDS - start)) s"
  [ "$rc" = 0 ] || status=1
  tar -cJf "$out/stop.tar.xz" -C "$(dirname "$logs")" stop
}
mkdir -p "$logs/check" "$logs/targets"
step check 170 bench/gpu-check.sh "$build"
grep -E "PASSED|FAILED|SKIPPED|tests ran|SUMMARY" "$logs/check.log" | sort | uniq -c | head -20
export ROUNDS=${ROUNDS:-3}
step targets 300 bench/gpu-targets.sh "$build" "$baseline"
step python-tests 100 bench/python-gpu.sh test "$build"
tail -n 3 "$logs/python-tests.log"
exit $status
