#!/usr/bin/env bash
# The Python module against an earlier build's, on the GPU machine in one call of the device
# tool: each module built there (bench/python-gpu.sh), then each of SCRIPTS with each module in
# turn, ROUNDS times, the engine rows from each build's own psfsim.
#
#   [ROUNDS=2] [SCRIPTS="bench/python_latency.py"] [ARGS=...] bench/gpu-python-against-baseline.sh BUILD BASE...
#
# ARGS: arguments for each script but python_latency.py.
#
# Carried: BUILD (as bench/python-gpu.sh build takes it: python-gpu-input, gpu-libs,
# CMakeCache.txt, apps/psfsim) and BASE/python-gpu-input with BASE/psfsim, the earlier
# build's staged inputs (bench/python-gpu.sh stage) and its executable; several BASEs, oldest
# first, each run in turn before BUILD. Where BASE/src holds the earlier tree's sources, its
# module is built from them, so that neither this tree's binding nor its headers leak into it.
set -u
usage="usage: bench/gpu-python-against-baseline.sh BUILD BASE..."
build=${1:?$usage}
shift
bases=("$@")
[ ${#bases[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-python-out}
mkdir -p "$out"
python=${PYTHON:-python3}
for base in "${bases[@]}"; do
  [ -e "$base/gpu-libs" ] || ln -s "$PWD/$build/gpu-libs" "$base/gpu-libs"
done
status=0
for b in "${bases[@]}" "$build"; do
  log=$out/build-$(basename "$b").txt
  if [ -d "$b/src" ]; then
    (cd "$b/src" && bench/python-gpu.sh build "$OLDPWD/$b") >"$log" 2>&1
  else
    bench/python-gpu.sh build "$b" >"$log" 2>&1
  fi || { status=1; tail -n 20 "$log"; }
done
exe() { [ -x "$1/psfsim" ] && echo "$PWD/$1/psfsim" || echo "$PWD/$1/apps/psfsim"; }
for round in $(seq "${ROUNDS:-2}"); do
  for script in ${SCRIPTS:-bench/python_latency.py}; do
    for b in "${bases[@]}" "$build"; do
      echo "== round $round, $script: $b"
      name=$(basename "$script" .py)-$(basename "$b")-$round
      if [ "$(basename "$script")" = python_latency.py ]; then
        PYTHONPATH=$PWD/$b/python-gpu PSFSIM_EXECUTABLE=$(exe "$b") \
          "$python" "$script" -o "$out/$name.md" |
          grep -E "batch|one PSF|result=|Simulator|engine's own total|overhead" || status=1
      else
        # shellcheck disable=SC2086
        PYTHONPATH=$PWD/$b/python-gpu PSFSIM_EXECUTABLE=$(exe "$b") "$python" "$script" \
          ${ARGS:-} || status=1
      fi
    done
  done
done
exit $status
