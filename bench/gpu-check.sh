#!/usr/bin/env bash
# GPU check, run on the GPU machine from the repository root with the build folder built on
# the development machine (see ../shared/GPU.md: CTest's absolute paths do not hold there,
# so the test and CLI executables are run directly). Steps: the CUDA tests, `psfsim info`,
# single-PSF timings (M = 2N, float32, one wave of rho^2 cos(phi)), then the batch timings
# of SPEC §5 through `psfsim sweep`. Logs land under $OUT (or ./gpu-check-out).
#
#   bench/gpu-check.sh [build-dir]      (default build-gpu)
set -u
build=${1:-build-gpu}
out=${OUT:-$PWD/gpu-check-out}
scratch=$(mktemp -d)  # the .h5 files: large, and not worth bringing back
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
psfsim=$build/apps/psfsim
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  2>&1 | tee "$out/device.txt"

echo "== CUDA tests"
"$build/tests/psfsim_tests" --gtest_filter='*Cuda*' --gtest_brief=1 >"$out/tests.txt" 2>&1
tests_rc=$?
tail -n 30 "$out/tests.txt"
[ "$tests_rc" -eq 0 ] || { echo "CUDA tests FAILED (exit $tests_rc)"; status=1; }

echo "== psfsim info"
"$psfsim" info 2>&1 | tee "$out/info.txt"

# The CLI prints a table of per-stage medians (microseconds) after each run.
echo "== single PSF, psfsim run --repeat 200 (targets for total: N=128 25 us, 512 120 us, 2048 1600 us)"
for n in 128 512 2048; do
  echo "-- N=$n"
  if "$psfsim" run --backend cuda --samples "$n" --repeat 200 --seidel 2,1,1 \
       -o "$scratch/n$n.h5" --force >"$out/run-n$n.txt" 2>&1; then
    sed -n '/^stage/,$p' "$out/run-n$n.txt"
  else
    echo "psfsim run N=$n FAILED:"; cat "$out/run-n$n.txt"; status=1
  fi
done

# Batch targets: 1024 frames at N=128 to host >= 180k PSFs/s, with --crop 64 >= 700k.
echo "== batches, psfsim sweep"
for crop in "" "--crop 64"; do
  # shellcheck disable=SC2086  # $crop is empty or two words
  "$psfsim" sweep --backends cuda --sizes 128 --batch 1024 --repeat 30 $crop \
    -o "$scratch/sweep.h5" --force >"$scratch/sweep.txt" 2>&1
  sweep_rc=$?
  tee -a "$out/sweep.txt" <"$scratch/sweep.txt"
  [ "$sweep_rc" -eq 0 ] || { echo "psfsim sweep FAILED (exit $sweep_rc)"; status=1; }
done
exit $status
