#!/usr/bin/env bash
# GPU check, run on the GPU machine from the repository root with the build folder built on
# the development machine (bench/gpu-session.sh: CTest's absolute paths do not hold there, so the
# executables are run directly). Steps: every CUDA test (the backend contract suite's cuda
# instances included), compute-sanitizer's memcheck, racecheck and initcheck on a batch, an
# odd size, a double-precision run, metrics alone and MFT calls queued behind each other,
# `psfsim info`, single-PSF latency (fused and per-stage timing), the batch targets of docs/spec.md
# §5,
# a CPU-vs-GPU size sweep, and the writer against dd (bench/writer-vs-dd.sh, into /dev/shm).
# Logs and the sweep file land under $OUT (or ./gpu-check-out).
#
#   bench/gpu-check.sh [build-dir]      (default build-gpu)
set -u
build=${1:-build-gpu}
out=${OUT:-$PWD/gpu-check-out}
scratch=$(mktemp -d)  # the .h5 files of single runs: not worth bringing back
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
source bench/gpu-env.sh
psfsim=$build/apps/psfsim
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  2>&1 | tee "$out/device.txt"

echo "== CUDA tests (every test with a cuda parameter, and the CUDA suites)"
cuda_tests "$build/tests/psfsim_tests" || status=1

echo "== compute-sanitizer: memcheck, racecheck, initcheck"
for tool in memcheck racecheck initcheck; do
  for case in "--samples 64 --vary Z4,-1,1,24 --crop 48" \
              "--samples 63 --padded-size 161 --zernike 7,0.2 --normalize sum" \
              "--samples 128 --precision double --vary S2_1,-1,1,6 --normalize sum" \
              "--samples 64 --vary Z4,-1,1,24 --metrics all --store metrics" \
              "--samples 50 --padded-size 101 --vary Z4,-1,1,6 --metrics all" \
              "--samples 32 --propagation mft --crop 128 --vary Z4,-1,1,300 --chunk-frames 100"; do
    # shellcheck disable=SC2086
    sanitize "$tool" "$psfsim" $case || status=1
  done
done > >(tee -a "$out/sanitizer.txt")

echo "== psfsim info"
"$psfsim" info 2>&1 | tee "$out/info.txt"

# Targets for the fused total: N=128 25 us, 512 120 us, 2048 1600 us (one PSF to host).
echo "== single PSF to host, float32, one wave of rho^2 cos(phi)"
for n in 128 512 2048; do
  for mode in "" "--stage-timing"; do
    repeats=$([ "$n" -eq 2048 ] && echo 200 || echo 2000)
    # Not --quiet: the stage table is what this step keeps.
    # shellcheck disable=SC2086
    if "$psfsim" run --backend cuda --samples "$n" --repeat "$repeats" --seidel 2,1,1 $mode \
         -o "$scratch/n$n.h5" --force >"$scratch/run.txt" 2>&1; then
      { echo "-- N=$n ${mode:-fused timing}"; sed -n '/^stage/,$p' "$scratch/run.txt"; } |
        tee -a "$out/runs.txt"
    else
      echo "psfsim run N=$n $mode FAILED:"; cat "$scratch/run.txt"; status=1
    fi
  done
done

# Batch targets: 1024 frames at N=128, M=256: >= 180k PSFs/s to host, >= 700k with
# --crop 64, >= 1.2M computed on the device (pupil + fft + intensity of the staged split;
# without --stage-timing a large batch runs in overlapping pieces, reported as one stage).
echo "== batches of 1024 at N=128 (psfsim sweep, each frame a different defocus)"
for options in "" "--crop 64" "--stage-timing" "--crop 64 --stage-timing"; do
  echo "-- ${options:-full frames}" | tee -a "$out/batch.txt"
  # shellcheck disable=SC2086
  "$psfsim" sweep --backends cuda --sizes 128 --batch 1024 --repeat 50 $options \
    -o "$scratch/batch.h5" --force 2>&1 | tee -a "$out/batch.txt" || status=1
done

echo "== N=2048 single PSF, per stage (compute-only target: pupil+fft+intensity <= 300 us)"
"$psfsim" sweep --backends cuda --sizes 2048 --repeat 100 --stage-timing \
  -o "$scratch/n2048.h5" --force 2>&1 | tee -a "$out/batch.txt" || status=1

echo "== size sweep, CPU (all cores of this host) against GPU, float32, B=1"
"$psfsim" sweep --backends cpu,cuda --sizes 32,64,128,256,512,1024,2048 --repeat 30 \
  --wisdom "$scratch/wisdom" -o "$out/sweep.h5" --force 2>&1 | tee "$out/sweep.txt" || status=1
echo "== the writer against dd into /dev/shm (target: psfsim <= 1.25x dd)"
"$(dirname "$0")/writer-vs-dd.sh" "$build" /dev/shm cuda 2>&1 | tee "$out/writer.txt" || status=1
exit $status
