#!/usr/bin/env bash
# The Python module against an earlier build's, on the GPU machine in one call of the device
# tool: each module built there (bench/python-gpu.sh), then bench/python_latency.py with each
# in turn, ROUNDS times, the engine rows from each build's own psfsim.
#
#   [ROUNDS=2] bench/gpu-python-against-baseline.sh BUILD BASE
#
# Carried: BUILD (as bench/python-gpu.sh build takes it: python-gpu-input, gpu-libs,
# CMakeCache.txt, apps/psfsim) and BASE/python-gpu-input with BASE/psfsim, the earlier
# build's staged inputs (bench/python-gpu.sh stage) and its executable.
set -u
build=${1:?usage: bench/gpu-python-against-baseline.sh BUILD BASE}
base=${2:?usage: bench/gpu-python-against-baseline.sh BUILD BASE}
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-python-out}
mkdir -p "$out"
python=${PYTHON:-python3}
[ -e "$base/gpu-libs" ] || ln -s "$PWD/$build/gpu-libs" "$base/gpu-libs"
status=0
for b in "$base" "$build"; do
  bench/python-gpu.sh build "$b" >"$out/build-$(basename "$b").txt" 2>&1 ||
    { status=1; tail -n 20 "$out/build-$(basename "$b").txt"; }
done
exe() { [ -x "$1/psfsim" ] && echo "$PWD/$1/psfsim" || echo "$PWD/$1/apps/psfsim"; }
for round in $(seq "${ROUNDS:-2}"); do
  for b in "$base" "$build"; do
    echo "== round $round: $b"
    PYTHONPATH=$PWD/$b/python-gpu PSFSIM_EXECUTABLE=$(exe "$b") \
      "$python" bench/python_latency.py -o "$out/latency-$(basename "$b")-$round.md" |
      grep -E "batch|one PSF|result=|Simulator\(\) to a NumPy|engine's own total" || status=1
  done
done
exit $status
