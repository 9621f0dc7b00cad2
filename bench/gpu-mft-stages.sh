#!/usr/bin/env bash
# The CUDA MFT's stages for several builds of psfsim_cuda_mft_bench side by side, on the GPU
# machine in one call of the device tool: each build's fused call and its --stage-timing
# medians at N = 128, K = 64 and N = 64, K = 32, in ROUNDS interleaved rounds, so that
# variants of a kernel are compared on one card in one lease. Optionally the CUDA tests of
# one build first.
#
#   [ROUNDS=2] [BATCH=4096] [TESTS=BUILD/tests/psfsim_tests] bench/gpu-mft-stages.sh BUILD EXE...
#
# BUILD is the carried CUDA build folder (bench/gpu-env.sh), each EXE a carried
# psfsim_cuda_mft_bench.
set -u
build=${1:?usage: bench/gpu-mft-stages.sh BUILD EXE...}
shift
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-mft-stages-out}
mkdir -p "$out"
status=0
if [ -n "${TESTS:-}" ]; then
  echo "== CUDA tests ($TESTS)"
  cuda_tests "$TESTS" 'PhaseTable*:MftFold*' || status=1
fi
for round in $(seq "${ROUNDS:-2}"); do
  for exe in "$@"; do
    log=$out/$(basename "$(dirname "$exe")")-$(basename "$exe")-$round.txt
    "$exe" "${BATCH:-4096}" 15 >"$log" 2>&1 || status=1
    echo "-- round $round $exe"
    grep -E "^mft|stage-timing" "$log" | sed -E 's/ float32 peak, to pinned host:/:/; s/; pupil\+mft.*//' | head -n 4
  done
done
exit $status
