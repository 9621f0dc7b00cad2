#!/usr/bin/env bash
# fft, mft and auto side by side on a grid of (N, K), from one `psfsim sweep` (docs/spec.md §10:
# auto never more than 1.1x slower than the faster of the two; the MFT's PSFs/s).
#
#   bench/propagation-grid.sh BUILD_DIR BACKEND [SIZES [CROPS [BATCHES [REPEAT]]]]
#   e.g. bench/propagation-grid.sh build cpu 32,64,128,256 16,32,64,128 64
# BATCHES is one frames-per-call or a list (1,16,256): one row per (N, B, K).
# REPEAT (default 7) timed calls per cell: on the GPU, where a call is short, medians of 7
# spread between cells that run the same code (bench/results/2026-12-01-queued-calls.md);
# gpu-mft.sh asks for 50.
set -euo pipefail
build=$1
backend=$2
sizes=${3:-32,64,128,256}
crops=${4:-16,32,64,128}
batch=${5:-64}
repeat=${6:-7}
# The table is read from the sweep's printed rows, so no h5py is needed (the GPU machine has
# none); the /sweep file holds the same numbers.
out=$(mktemp -d)/grid.h5
trap 'rm -rf "$(dirname "$out")"' EXIT
"$build/apps/psfsim" sweep --backends "$backend" --sizes "$sizes" --crop "$crops" \
  --propagation fft,mft,auto --batch "$batch" --repeat "$repeat" -o "$out" |
  python3 "$(dirname "$0")/propagation_grid.py"
