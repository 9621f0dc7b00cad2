#!/usr/bin/env bash
# One small PSF as a whole process, as a user runs it (docs/spec.md's target "one small PSF,
# process included: faster than the NumPy script as a process"):
#   numpy:  python3 running the original question's pipeline (examples/python/seed_pipeline.py:
#           N = 128, M = 256, one wave of rho^2 cos(phi), float64 as its author wrote it) and
#           saving the frame with numpy.save, the script's own way to keep it;
#   psfsim: `psfsim run --samples 128 -o x.h5`, the spec's command, and the same PSF as the
#           script's (`--pad-factor 2 --grid linspace --seidel 2,1,1 --normalize none
#           --precision double`); the CPU backend, default threads, the file written.
# Each is a fresh process timed from start to exit; the three run interleaved, ROUNDS times
# (default 11), and the medians and the spread are printed, with the ratios to NumPy.
#
#   bench/process-vs-numpy.sh [build-dir]    (default build; PYTHON defaults to /usr/bin/python3)
#
# Output: the table on stdout and in $OUT/process-vs-numpy.md (OUT unset: ./process-vs-numpy-out).
set -euo pipefail
build=${1:-build}
psfsim=${PSFSIM:-$build/apps/psfsim}
python=${PYTHON:-/usr/bin/python3}
[ -x "$psfsim" ] || { echo "process-vs-numpy.sh: no $psfsim (build the psfsim target)" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$PWD/process-vs-numpy-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rounds=${ROUNDS:-11}

script="import sys; sys.path.insert(0, sys.argv[1]); import numpy as np
from seed_pipeline import seed_psf
np.save(sys.argv[2], seed_psf())"
same=(--pad-factor 2 --grid linspace --seidel "2,1,1" --normalize none --precision double)

seconds() {  # COMMAND...: its wall time in seconds
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}

raw="$out/process-vs-numpy.tsv"
printf 'round\tnumpy_s\tpsfsim_s\tpsfsim_same_s\n' >"$raw"
for ((round = 1; round <= rounds; ++round)); do
  a=$(seconds "$python" -c "$script" "$here/examples/python" "$scratch/seed.npy")
  b=$(seconds "$psfsim" run --backend cpu --samples 128 --quiet --force -o "$scratch/x.h5")
  c=$(seconds "$psfsim" run --backend cpu --samples 128 "${same[@]}" --quiet --force \
        -o "$scratch/same.h5")
  printf '%s\t%s\t%s\t%s\n' "$round" "$a" "$b" "$c" >>"$raw"
done

{
  echo "One small PSF as a whole process, $(date -u +%F), $(nproc) cores" \
    "($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')); $psfsim and $python;" \
    "medians of $rounds interleaved rounds [min-max]"
  echo
  echo "| process | median | range | against NumPy |"
  echo "|---|---|---|---|"
  awk -F'\t' '
    function median(a, n,    i, j, t) {
      for (i = 1; i <= n; ++i)
        for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == 1 { next }
    { ++n; for (k = 2; k <= 4; ++k) v[k, n] = $k + 0 }
    END {
      name[2] = "NumPy script (`seed_pipeline.py`, float64, `numpy.save`)"
      name[3] = "`psfsim run --samples 128 -o x.h5`"
      name[4] = "`psfsim run` of the same PSF (linspace, `--seidel 2,1,1`, double)"
      for (k = 2; k <= 4; ++k) {
        lo = hi = v[k, 1]
        for (i = 1; i <= n; ++i) {
          a[i] = v[k, i]; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i]
        }
        m[k] = median(a, n)
        printf "| %s | %.3f s | %.3f-%.3f s | %.2fx |\n", name[k], m[k], lo, hi, m[2] / m[k]
      }
    }' "$raw"
} | tee "$out/process-vs-numpy.md"
