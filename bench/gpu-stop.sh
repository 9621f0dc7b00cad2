#!/usr/bin/env bash
# What a stop owes on the GPU machine, in one call of the device tool: the GPU check
# (bench/gpu-check.sh: CUDA tests, compute-sanitizer, latency, batches, the size sweep, the
# writer against dd), the open targets beside a baseline build (bench/gpu-targets.sh, the floor
# under one PSF included; the module's latency with PYTHON_BENCH=1), the Python batches beside
# an earlier build's module where PY_BASE names one (bench/gpu-python-against-baseline.sh with
# bench/python_chunk_probe.py --host), then the module's tests there (bench/python-gpu.sh test).
# Each step has its own time limit, so that one that hangs leaves time to the others, and the
# logs so far are packed into $OUT/stop.tar.xz after each step (the device tool brings back few
# files, and none from a call that runs out of time).
#
#   [ROUNDS=3] [PYTHON_BENCH=1] [PY_BASE=DIR] bench/gpu-stop.sh BUILD BASELINE-PSFSIM
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/CMakeCache.txt, BUILD/gpu-libs,
# BUILD/python-gpu-input.tar.xz (bench/gpu-stage.sh, then packed), the baseline's psfsim and
# BUILD/bench/psfsim_cuda_delivery_floor_bench; with PY_BASE, that folder (its psfsim and its
# python-gpu-input.tar.xz, as bench/gpu-python-against-baseline.sh takes them).
set -u
build=${1:?usage: bench/gpu-stop.sh BUILD BASELINE-PSFSIM}
baseline=${2:?usage: bench/gpu-stop.sh BUILD BASELINE-PSFSIM}
out=${OUT:-$PWD/gpu-stop-out}
logs=$(mktemp -d)/stop
mkdir -p "$out" "$logs"
for t in "$build/python-gpu-input.tar.xz" ${PY_BASE:+"$PY_BASE/python-gpu-input.tar.xz"}; do
  [ -f "$t" ] && tar -xJf "$t" -C "$(dirname "$t")"
done
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
step check 170 bench/gpu-check.sh "$build"
grep -E "PASSED|FAILED|SKIPPED|tests ran|SUMMARY" "$logs/check.log" | sort | uniq -c | head -20
export ROUNDS=${ROUNDS:-3}
step targets "${TARGETS_LIMIT:-300}" bench/gpu-targets.sh "$build" "$baseline"
if [ -n "${PY_BASE:-}" ]; then
  ROUNDS=2 ARGS=--host SCRIPTS=bench/python_chunk_probe.py \
    step python-batches 180 bench/gpu-python-against-baseline.sh "$build" "$PY_BASE"
  grep -E "==|N=" "$logs/python-batches.log"
fi
step python-tests 100 bench/python-gpu.sh test "$build"
tail -n 3 "$logs/python-tests.log"
exit $status
