#!/usr/bin/env bash
# A mask's passes folded by the grids' symmetry (cuda/src/train_stage.hpp), on the GPU
# machine in one call of the device tool: the CUDA tests; the trains against brute-force FFTs
# and against the CPU backend; compute-sanitizer on trains that fold (even and odd N, double,
# three channels, a vortex in calls of 18 frames, four quadrants on odd N, where the
# whole-period pass stays an FFT pass beside the folded ones, and the whole-period passes of
# power-of-two m, which skip the padding, in calls of 18 and of 5 frames); then the
# coronagraphs' rates to host beside an earlier build, interleaved (float32, N = 128, K = 64
# at 0.5 lambda/D, random Zernikes 4-11; the median of /timings/total over the repeats after
# the first), and where Nsight Systems or Compute is there, the kernels of a vortex and a Lyot
# batch by their summed device time, and the weights' kernel of each build by Nsight Compute.
#
#   [SHAPES="lyot 4096 11;vortex 4096 6"] [ROUNDS=3] [PROFILE=0] [CHECKS=0] \
#   [DETAIL=regex] \
#   bench/gpu-folded-train.sh [build-dir] [baseline-psfsim...]
#       (defaults build-gpu and build-gpu/baseline/psfsim; SHAPES: "TRAIN FRAMES REPEATS"
#       cases, ';' between; PROFILE=0 skips the kernels' sums; CHECKS=0 the tests, checks
#       and sanitizers, for a measurement alone; DETAIL: the kernels whose
#       launch, occupancy and stall sections Nsight Compute also gives)
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/CMakeCache.txt, BUILD/gpu-libs
# and each baseline's psfsim.
set -u
build=${1:-build-gpu}
shift
baselines=("$@")
[ ${#baselines[@]} -gt 0 ] || baselines=("$build/baseline/psfsim")
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-folded-train-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python=${PYTHON:-python3}
psfsim=$PWD/$build/apps/psfsim
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1

if [ "${CHECKS:-1}" != 0 ]; then
  echo "== CUDA tests"
  cuda_tests "$build/tests/psfsim_tests" 'FoldedPass*:MftFold*:TrainSpot*' || status=1

  echo "== trains against brute-force FFTs, on the GPU"
  "$python" tests/check_coronagraph.py "$psfsim" "$scratch/ref" cuda >"$out/coronagraph.txt" 2>&1 ||
    status=1
  tail -n 12 "$out/coronagraph.txt"

  echo "== trains: GPU against CPU"
  "$python" tests/check_train_backends.py "$psfsim" "$scratch/agree" >"$out/agree.txt" 2>&1 ||
    status=1
  grep -E "^(ok|FAIL)|failure|Error" "$out/agree.txt"

  echo "== compute-sanitizer"
  cases=("--samples 48 --crop 32 --vary Z4,0,0.1,24 --coronagraph lyot:3 --lyot-stop 0.9"
         "--samples 47 --grid linspace --crop 32 --vary Z4,0,0.1,20 --chunk-frames 18 --coronagraph lyot:2 --lyot-stop 0.9"
         "--samples 48 --crop 32 --precision double --vary Z4,0,0.1,20 --coronagraph lyot:3 --lyot-stop 0.9,0.2 --metrics contrast,ee --store metrics"
         "--samples 48 --crop 24 --band 500nm-600nm,3 --diameter 1m --pixel-scale 20mas --vary Z4,0,0.1,20 --coronagraph lyot:3 --lyot-stop 0.9"
         "--samples 48 --crop 32 --vary Z4,0,0.1,20 --chunk-frames 18 --coronagraph vortex:4 --lyot-stop 0.9"
         "--samples 47 --crop 32 --vary Z4,0,0.1,20 --coronagraph fqpm --lyot-stop 0.9"
         "--samples 64 --crop 32 --vary Z4,0,0.1,20 --chunk-frames 18 --coronagraph vortex:6 --lyot-stop 0.95"
         "--samples 32 --crop 32 --precision double --vary Z4,0,0.1,5 --coronagraph fqpm --lyot-stop 0.9")
  for tool in memcheck racecheck initcheck; do
    # memcheck on every case; racecheck and initcheck on the first two, the vortex, and the
    # power-of-two periods (m = 256 and 128), whose columns' kernel trades in shared memory
    for case in "${cases[@]}"; do
      [ "$tool" != memcheck ] && [ "$case" != "${cases[0]}" ] && [ "$case" != "${cases[1]}" ] &&
        [ "$case" != "${cases[4]}" ] && [ "$case" != "${cases[6]}" ] &&
        [ "$case" != "${cases[7]}" ] && continue
      # shellcheck disable=SC2086
      sanitize "$tool" "$psfsim" $case
    done
  done | tee "$out/sanitizer.txt"
  grep -q FAILED "$out/sanitizer.txt" && status=1
fi

# The measured case's arguments into `args`: FRAMES frames a call, REPEATS calls, into FILE.
train_args() {  # FRAMES REPEATS FILE TRAIN...
  local frames=$1 repeats=$2 file=$3
  shift 3
  args=(run --backend cuda --samples 128 --pixel-scale 0.5lod --crop 64
        --random "4-11,0.01,$frames,1" --repeat "$repeats" --chunk-frames "$frames" "$@"
        --quiet --force -o "$file")
}
rate() {  # EXE FRAMES REPEATS TRAIN...: PSFs/s and us/PSF
  local exe=$1 frames=$2 repeats=$3 args
  shift 3
  train_args "$frames" "$repeats" "$scratch/r.h5" "$@"
  "$exe" "${args[@]}" 2>"$scratch/r.err" ||
    { echo "FAILED: $(tail -n 1 "$scratch/r.err")"; status=1; return; }
  "$python" -c "import sys; f, t = int(sys.argv[1]), float(sys.argv[2]); print(f'{f / t:10.0f} PSFs/s {t * 1e6 / f:8.2f} us/PSF')" \
    "$frames" "$(median_total "$scratch/r.h5")"
}
echo "== trains to host (float32, N = 128, K = 64), interleaved with the baseline"
lyot=(--coronagraph lyot:4 --lyot-stop 0.8)
vortex=(--coronagraph vortex:6 --lyot-stop 0.95)
fqpm=(--coronagraph fqpm --lyot-stop 0.95)
default_shapes=("lyot 4096 11" "lyot 1024 21" "lyot 64 101" "lyot 16 101" "vortex 4096 6"
                "vortex 64 51" "fqpm 4096 6")
IFS=';' read -r -a shapes <<<"${SHAPES:-$(IFS=';'; echo "${default_shapes[*]}")}"
for round in $(seq "${ROUNDS:-3}"); do
  for shape in "${shapes[@]}"; do
    set -- $shape
    declare -n train=$1
    for baseline in "${baselines[@]}"; do
      [ -x "$baseline" ] && echo "round $round $1 B=$2 $baseline: $(rate "$baseline" "$2" "$3" "${train[@]}")"
    done
    echo "round $round $1 B=$2 current:  $(rate "$psfsim" "$2" "$3" "${train[@]}")"
  done
done | tee "$out/rates.txt"
grep -q FAILED "$out/rates.txt" && status=1

echo "== where the time goes: B = 4096, 3 repeats"
nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -n 1)
names=(vortex lyot)
[ "${PROFILE:-1}" = 0 ] && { echo "(skipped: PROFILE=0)"; names=(); }
for name in "${names[@]}"; do
  declare -n train=$name
  train_args 4096 3 "$scratch/p.h5" "${train[@]}"
  if [ -n "$nsys" ]; then
    "$nsys" profile -o "$scratch/$name" --force-overwrite true "$psfsim" "${args[@]}" >/dev/null 2>&1 &&
      "$nsys" stats --report cuda_gpu_kern_sum --format csv "$scratch/$name.nsys-rep" \
        >"$out/$name-kernels.csv" 2>/dev/null
    echo "-- $name (nsys): $(wc -l <"$out/$name-kernels.csv") lines"
    head -n 14 "$out/$name-kernels.csv" | cut -c1-220
  else
    ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 40 --launch-count 80 \
      --print-summary per-kernel "$psfsim" "${args[@]}" >"$out/$name-kernels.txt" 2>&1
    echo "-- $name (ncu)"
    grep -E "^  [A-Za-z_]|gpu__time_duration" "$out/$name-kernels.txt" | head -n 40
  fi
done

if [ -n "${DETAIL:-}" ]; then
  echo "== kernels matching $DETAIL in a vortex batch (Nsight Compute: launch, occupancy, stalls)"
  train_args 4096 2 "$scratch/d.h5" "${vortex[@]}"
  ncu --clock-control none -k "regex:$DETAIL" --launch-skip 6 --launch-count 6 \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    "$psfsim" "${args[@]}" >"$out/detail.txt" 2>&1
  grep -E "^  [a-z_ ]*void|Duration|Throughput|Registers Per|Shared Memory Config|Achieved Occ|Theoretical Occ|Block Limit|Stall|Warp Cycles Per Issued" \
    "$out/detail.txt" | sed 's/(T1 \*.*//' | head -n 80
fi

echo "== the weights' kernel of a vortex batch, each build (Nsight Compute, speed of light)"
for exe in "${baselines[@]}" "$psfsim"; do
  [ -x "$exe" ] || continue
  train_args 4096 2 "$scratch/w.h5" "${vortex[@]}"
  ncu --clock-control none -k regex:weight_folded --launch-skip 6 --launch-count 4 \
    --section SpeedOfLight "$exe" "${args[@]}" >"$scratch/w.txt" 2>&1
  echo "-- $exe"
  grep -E "weight_folded|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)" "$scratch/w.txt" |
    sed 's/(T1 \*.*//' | head -n 24
done
exit $status
