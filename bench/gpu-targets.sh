#!/usr/bin/env bash
# The GPU targets still open (docs/performance.md, "Not met, or not measured again") on the
# card at hand, in one call of the device tool, each engine figure beside an earlier build,
# interleaved: one PSF to host at N = 64 and 128 (the run's pupil and total rows, median and
# spread over 3000 calls) and the floor under it (bench/cuda_delivery_floor_bench.cu); the MFT
# to host at the targets' shapes (float32, B = 4096 and 16384); `--backend auto`'s two cases
# and the whole-process times of auto, cpu and cuda (bench/auto-check.sh); then the Python
# module built there (bench/python-gpu.sh) and bench/python_latency.py.
#
#   [ROUNDS=3] [PYTHON_BENCH=1] bench/gpu-targets.sh [build-dir] [baseline-psfsim]
#       (defaults build-gpu and build-gpu/baseline/psfsim)
#
# Carried: BUILD/apps/psfsim, BUILD/CMakeCache.txt, BUILD/gpu-libs, BUILD/python-gpu-input
# (bench/gpu-stage.sh), the baseline's psfsim, and BUILD/bench/psfsim_cuda_delivery_floor_bench
# where the floor is wanted.
set -u
build=${1:-build-gpu}
baseline=${2:-$build/baseline/psfsim}
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-targets-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python=${PYTHON:-python3}
psfsim=$build/apps/psfsim
builds=("$psfsim")
[ -x "$baseline" ] && builds=("$baseline" "$psfsim")
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1

echo "== one PSF to host, float32 (targets: N = 128 <= 12 us, N = 64 <= 10 us)"
for round in $(seq "${ROUNDS:-3}"); do
  for n in 128 64; do
    for exe in "${builds[@]}"; do
      echo "round $round N=$n $exe: $(one_psf "$exe" "$n" single)"
    done
  done
done | tee "$out/one-psf.txt"

echo "== the floor under one PSF to host: a launch, a graph of three, the frame written to host"
floor=$build/bench/psfsim_cuda_delivery_floor_bench
if [ -x "$floor" ]; then
  "$floor" 128 256 | tee "$out/floor.txt" || status=1
else
  echo "$floor not carried: skipped"
fi

echo "== the MFT to host, float32 (targets: N = 128 K = 64 >= 3.1M, N = 64 K = 32 >= 12M)"
for round in $(seq "${ROUNDS:-3}"); do
  for shape in "128 64 4096" "128 64 16384" "64 32 4096" "64 32 16384"; do
    for exe in "${builds[@]}"; do
      # shellcheck disable=SC2086
      echo "round $round N,K,B=$shape $exe: $(mft "$exe" $shape)"
    done
  done
done | tee "$out/mft.txt"
grep -q FAILED "$out/mft.txt" && status=1

echo "== --backend auto, and a CUDA process (target: one small PSF <= 0.25 s whole process)"
# Not through a pipe: auto-check's own status is the one to keep.
PYTHON=$python bench/auto-check.sh "$build" >"$out/auto.txt" 2>&1 || status=1
cat "$out/auto.txt"

if [ "${PYTHON_BENCH:-1}" = 1 ]; then
  echo "== Python"
  if bench/python-gpu.sh build "$build" >"$out/python-build.txt" 2>&1; then
    tail -n 3 "$out/python-build.txt"
    PYTHONPATH=$PWD/$build/python-gpu PSFSIM_EXECUTABLE=$PWD/$psfsim \
      "$python" bench/python_latency.py -o "$out/python-latency.md" || status=1
  else
    status=1
    tail -n 20 "$out/python-build.txt"
  fi
fi
exit $status
