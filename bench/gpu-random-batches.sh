#!/usr/bin/env bash
# Random batches on the GPU machine, in one call of the device tool (issue 25's batch rows):
# the CUDA tests; `psfsim run --random` at the Python benchmark's two batch shapes with an
# earlier build interleaved (its in-process /timings/total, which counts the host's phases);
# one PSF to host, interleaved likewise; the MFT's stages one by one (the baseline's bench
# beside it); the pupil kernel under Nsight Compute; then the Python module,
# built there (bench/python-gpu.sh), through bench/python_latency.py.
#
#   [NCU=0] [PYTEST=1] bench/gpu-random-batches.sh [build-dir] [baseline-psfsim]
#       (NCU=0: no profile; PYTEST=1: python/tests there too)
#       (defaults build-gpu and build-gpu/baseline/psfsim)
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/bench/psfsim_cuda_mft_bench,
# BUILD/CMakeCache.txt, BUILD/gpu-libs, BUILD/python-gpu-input (bench/python-gpu.sh stage)
# and the baseline (its psfsim, and its psfsim_cuda_mft_bench beside it where carried).
set -u
build=${1:-build-gpu}
baseline=${2:-$build/baseline/psfsim}
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-random-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python=${PYTHON:-python3}
psfsim=$build/apps/psfsim
status=0

echo "== CUDA tests"
cuda_tests "$build/tests/psfsim_tests" 'PhaseTable*' || status=1

engine() {  # EXE N K B: PSFs/s from the median of /timings/total over repeats 2-8
  "$1" run --backend cuda --samples "$2" --crop "$3" --precision single --wisdom none \
    --random "4-6,0.05,$4,1" --repeat 8 --quiet --force -o "$scratch/e.h5" ||
    { echo "FAILED"; status=1; return; }
  "$python" -c "import sys; print(f'{int(sys.argv[1]) / float(sys.argv[2]):.0f} PSFs/s')" "$4" \
    "$(median_total "$scratch/e.h5")"
}
echo "== psfsim run --random 4-6,0.05,B,1 --repeat 8 (float32), interleaved"
for round in 1 2; do
  for shape in "128 64 8192" "64 32 16384"; do
    set -- $shape
    [ -x "$baseline" ] && echo "round $round N=$1 K=$2 B=$3 baseline: $(engine "$baseline" "$@")"
    echo "round $round N=$1 K=$2 B=$3 current:  $(engine "$psfsim" "$@")"
  done
done | tee "$out/random-engine.txt"

echo "== one PSF to host (FFT path, float32), --repeat 3000, interleaved"
for round in 1 2; do
  for n in 64 128; do
    [ -x "$baseline" ] && echo "round $round N=$n baseline: $(one_psf "$baseline" "$n" single)"
    echo "round $round N=$n current:  $(one_psf "$psfsim" "$n" single)"
  done
done | tee "$out/one-psf.txt"

echo "== the MFT's stages, 4096 frames (psfsim_cuda_mft_bench; the baseline's beside it)"
base_bench=$(dirname "$baseline")/psfsim_cuda_mft_bench
benches=("$build/bench/psfsim_cuda_mft_bench")
[ -x "$base_bench" ] && benches=("$base_bench" "${benches[@]}")
OUT="$out" bench/gpu-mft-stages.sh "$build" "${benches[@]}" || status=1

if [ "${NCU:-1}" = 1 ]; then
echo "== the pupil kernel under Nsight Compute (N = 128, MFT, 4096 frames)"
ncu --clock-control none -k regex:build_pupil --launch-skip 4 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
  --section ComputeWorkloadAnalysis --section InstructionStats \
  "$psfsim" run --backend cuda --samples 128 --crop 64 --propagation mft \
  --random 4-6,0.05,4096,1 --repeat 6 --chunk-frames 4096 --quiet --force -o "$scratch/n.h5" \
  >"$out/ncu-pupil.txt" 2>&1 || status=1
grep -E "Duration|Throughput|Pipe|Occupancy|Registers|Stall|Issued|Executed Ipc|Block Limit" \
  "$out/ncu-pupil.txt" | head -n 40
fi

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
exit $status
