#!/usr/bin/env bash
# docs/spec.md §10's metric target on the GPU machine: `psfsim run --store metrics` at N=128, M=256,
# end to end (process start to exit, file included), in PSFs/s, for the metrics without and
# with the MTF (which adds an FFT of each whole plane); then `psfsim sweep` timing the device
# alone with --store metrics against --store frames. Each run three times; medians.
#   bench/gpu-metrics.sh BUILD_DIR [FOLDER [FRAMES]]   e.g. build-gpu /dev/shm 1000000
set -euo pipefail
build=$1
folder=${2:-/dev/shm}
frames=${3:-1000000}
psfsim=$build/apps/psfsim
scratch=$(mktemp -d "$folder/psfsim-metrics-XXXXXX")
trap 'rm -rf "$scratch"' EXIT

seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>"$scratch/err" || { echo "FAILED: $*" >&2; cat "$scratch/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

printf '%-44s %10s %12s\n' "metrics (N=128, M=256, --store metrics)" "median s" "PSFs/s"
for metrics in strehl strehl,centroid,fwhm,ee strehl,strehl_centre,centroid,fwhm,ee,rms_wavefront all; do
  t=()
  for i in 1 2 3; do
    t+=("$(seconds "$psfsim" run --backend cuda --samples 128 --pad-factor 2 \
      --random "4-15,0.05,$frames,1" --metrics "$metrics" --store metrics --quiet --force \
      -o "$scratch/m.h5")")
  done
  m=$(median3 "${t[@]}")
  awk -v l="$metrics" -v s="$m" -v f="$frames" 'BEGIN { printf "%-44s %10.3f %12.0f\n", l, s, f / s }'
done
"$psfsim" run --backend cuda --samples 128 --pad-factor 2 --random "4-15,0.05,$frames,1" \
  --metrics strehl,centroid,fwhm,ee,rms_wavefront --store metrics --force -o "$scratch/m.h5" |
  tail -n 8
# The host's share: the same frames at N = 8, where the device has next to nothing to do.
t=()
for i in 1 2 3; do
  t+=("$(seconds "$psfsim" run --backend cuda --samples 8 --pad-factor 2 \
    --random "4-15,0.05,$frames,1" --metrics strehl --store metrics --quiet --force \
    -o "$scratch/h.h5")")
done
awk -v s="$(median3 "${t[@]}")" -v f="$frames" \
  'BEGIN { printf "%-44s %10.3f %12.0f\n", "host floor (N=8, strehl)", s, f / s }'
for store in metrics both frames; do
  "$psfsim" sweep --backends cuda --sizes 128 --batch 1024,4096 --repeat 30 \
    --metrics strehl,centroid,fwhm,ee,rms_wavefront --store "$store" --force -o "$scratch/s.h5"
done
