#!/usr/bin/env bash
# --backend auto on the GPU machine, in one call of the device tool with the CUDA build
# carried (as bench/gpu-field.sh): bench/auto-check.sh's two cases, then auto's own
# whole-process times over bench/auto-grid.sh's frames x N, beside the cpu and cuda times
# bench/gpu-field.sh measured there.
#
#   bench/gpu-auto.sh [build-dir]      (default build-gpu)
set -u
build=${1:-build-gpu}
source bench/gpu-env.sh
export PYTHON=${PYTHON:-python3}
status=0
echo "== auto's two cases"
bench/auto-check.sh "$build" || status=1
echo "== whole-process time with auto, frames x N"
bench/auto-grid.sh "$build" auto || status=1
exit $status
