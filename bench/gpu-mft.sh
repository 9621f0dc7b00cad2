#!/usr/bin/env bash
# The MFT on the GPU machine (docs/spec.md §10): PSFs/s to host memory at N=128, K=64 and N=64, K=32
# with B = 1024 and 4096 against the FFT's crop, then fft/mft/auto on a grid of (N, K).
#   bench/gpu-mft.sh BUILD_DIR
set -euo pipefail
build=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for shape in "128 64" "64 32"; do
  set -- $shape
  "$build/apps/psfsim" sweep --backends cuda --sizes "$1" --crop "$2" --propagation mft,fft \
    --batch 1024,4096 --repeat 30 -o "$out/s$1.h5"
done
bash "$(dirname "$0")/propagation-grid.sh" "$build" cuda 32,64,128,256 16,32,64,128 1024 50
