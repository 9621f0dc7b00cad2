#!/usr/bin/env bash
# Field grids on the GPU machine (docs/field.md), in one call of the device tool, from the
# repository root with the CUDA build carried (as bench/gpu-coronagraph.sh): the field tests
# (each form on the GPU against the CPU) and the CUDA tests, the two field-grid timings of
# bench/field-grid.sh on the GPU and on the host's cores, and bench/auto-grid.sh's
# whole-process times of each backend over frames x pupil size.
#
#   bench/gpu-field.sh [build-dir]      (default build-gpu)
set -u
build=${1:-build-gpu}
out=${OUT:-$PWD/gpu-field-out}
mkdir -p "$out"
source bench/gpu-env.sh
export PYTHON=${PYTHON:-python3}
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
nproc

echo "== field tests (GPU against CPU) and CUDA tests"
cuda_tests "$build/tests/psfsim_tests" 'FieldRun.*' || status=1

echo "== field grids"
for backend in cuda cpu; do
  for _ in 1 2; do bench/field-grid.sh "$backend" "$build" 2>&1 || status=1; done
done

echo "== whole-process time per backend, frames x N"
bench/auto-grid.sh "$build" "${AUTO_BACKENDS:-cpu cuda auto}" 2>&1 | tee "$out/auto-grid.txt" || status=1
exit $status
