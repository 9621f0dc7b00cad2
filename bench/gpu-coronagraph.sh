#!/usr/bin/env bash
# Optical trains on the GPU machine (docs/coronagraphy.md), in one call of the device tool,
# from the repository root with the CUDA build carried (as bench/gpu-session.sh): the CUDA
# tests, the trains' checks against brute-force FFTs and against the CPU backend, the exact
# encircled energy of the CLI's check case, compute-sanitizer on a train, then the
# throughput and single-PSF latency of a Lyot and a vortex coronagraph beside the CPU's.
# Figures: float32, N = 128, K = 64 at 0.5 lambda/D, B = 4096 frames to host, random
# Zernikes; medians of /timings/total over the repeats after the first. Given a baseline
# psfsim (an earlier commit's CUDA build, carried), the trains' GPU cases run with it too,
# interleaved with the current build's.
#
#   bench/gpu-coronagraph.sh [build-dir] [baseline-psfsim]      (default build-gpu, none)
set -u
build=${1:-build-gpu}
baseline=${2:-}
out=${OUT:-$PWD/gpu-coronagraph-out}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
source bench/gpu-env.sh
psfsim=$PWD/$build/apps/psfsim
python=${PYTHON:-python3}
status=0

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1

echo "== CUDA tests"
cuda_tests "$build/tests/psfsim_tests" || status=1

echo "== trains against brute-force FFTs, on the GPU"
"$python" tests/check_coronagraph.py "$psfsim" "$scratch/ref" cuda >"$out/coronagraph.txt" 2>&1 ||
  status=1
cat "$out/coronagraph.txt"

echo "== trains: GPU against CPU"
"$python" tests/check_train_backends.py "$psfsim" "$scratch/agree" >"$out/agree.txt" 2>&1 ||
  status=1
grep -E "^(ok|FAIL)|failure" "$out/agree.txt"

echo "== exact encircled energy, r = 1 lambda/D (0.826366 for this sampled pupil)"
for p in fft mft; do
  "$psfsim" run --backend cuda --samples 256 --pad-factor 4 --crop 161 --normalize none \
    --propagation $p --metrics ee --ee-radii 1 --store metrics --quiet --force -o "$scratch/ee.h5"
  "$python" -c "import h5py; print('$p', h5py.File('$scratch/ee.h5')['metrics/ee'][0, 0])"
done

echo "== compute-sanitizer memcheck on trains"
for train in "--coronagraph vortex:4 --lyot-stop 0.9" "--coronagraph lyot:3 --lyot-stop 0.9 --metrics contrast,ee --store metrics"; do
  # shellcheck disable=SC2086
  sanitize memcheck "$psfsim" --samples 48 --crop 32 --vary Z4,0,0.1,5 $train || status=1
done

# A short last call transforms the periodic pass's stale padded fields too: none may be
# uninitialised.
if "$sanitizer" --tool initcheck --error-exitcode 99 "$psfsim" run --backend cuda --samples 48 \
     --crop 32 --vary Z4,0,0.1,5 --chunk-frames 2 --coronagraph vortex:4 --lyot-stop 0.9 \
     --quiet --force -o "$scratch/san.h5" >"$scratch/san.txt" 2>&1; then
  echo "-- initcheck (vortex, calls of 2, 2 and 1 frames): $(grep 'ERROR SUMMARY' "$scratch/san.txt" | tail -1)"
else
  echo "-- initcheck (vortex): FAILED"; tail -n 20 "$scratch/san.txt"; status=1
fi

run_case() {  # NAME BACKEND FRAMES REPEATS TRAIN...   (EXE: the psfsim to run, default current)
  local name=$1 backend=$2 frames=$3 repeats=$4
  shift 4
  "${EXE:-$psfsim}" run --backend "$backend" --samples 128 --pixel-scale 0.5lod --crop 64 \
    --random "4-11,0.01,$frames,1" --repeat "$repeats" --chunk-frames "$frames" "$@" \
    --quiet --force -o "$scratch/$name.h5" || { echo "$name: FAILED"; status=1; return; }
  local t
  t=$(median_total "$scratch/$name.h5")
  "$python" -c "import sys; f, t = int(sys.argv[2]), float(sys.argv[3]); print(f'{sys.argv[1]:<28} {t * 1e6 / f:10.2f} us/PSF {f / t:12.0f} PSFs/s ({f} frames, median of repeats)')" \
    "$name" "$frames" "$t" | tee -a "$out/throughput.txt"
}
echo "== throughput and latency (float32, N = 128, K = 64)"
lyot=(--coronagraph lyot:4 --lyot-stop 0.8)
vortex=(--coronagraph vortex:6 --lyot-stop 0.95)
fqpm=(--coronagraph fqpm --lyot-stop 0.95)
for round in 1 2; do
  if [ -n "$baseline" ]; then
    EXE=$baseline run_case "baseline-vortex-B4096" cuda 4096 6 "${vortex[@]}"
    EXE=$baseline run_case "baseline-fqpm-B4096" cuda 4096 6 "${fqpm[@]}"
    EXE=$baseline run_case "baseline-vortex-B16" cuda 16 101 "${vortex[@]}"
    EXE=$baseline run_case "baseline-vortex-B1" cuda 1 201 "${vortex[@]}"
    EXE=$baseline run_case "baseline-lyot-B4096" cuda 4096 11 "${lyot[@]}"
    EXE=$baseline run_case "baseline-lyot-B1" cuda 1 201 "${lyot[@]}"
  fi
  run_case gpu-vortex-B4096 cuda 4096 6 "${vortex[@]}"
  run_case gpu-fqpm-B4096 cuda 4096 6 "${fqpm[@]}"
  run_case gpu-vortex-B16 cuda 16 101 "${vortex[@]}"
  run_case gpu-vortex-B1 cuda 1 201 "${vortex[@]}"
  run_case gpu-lyot-B4096 cuda 4096 11 "${lyot[@]}"
  run_case gpu-lyot-B1 cuda 1 201 "${lyot[@]}"
  [ -n "$baseline" ] || break
done
run_case gpu-fqpm-B1 cuda 1 201 "${fqpm[@]}"
run_case gpu-plain-mft-B4096 cuda 4096 11 --propagation mft
run_case cpu-lyot-B256 cpu 256 3 "${lyot[@]}"
run_case cpu-vortex-B64 cpu 64 3 "${vortex[@]}"
run_case cpu-lyot-B1 cpu 1 21 "${lyot[@]}"
run_case cpu-vortex-B1 cpu 1 11 "${vortex[@]}"
echo "== CPU threads: $(nproc)"
exit $status
