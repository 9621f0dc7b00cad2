#!/usr/bin/env bash
# A first run against its warm run (issue 23: the first run of any one PSF takes at most
# 2x its warm run + 0.1 s). For each case, one PSF on the CPU backend, float32:
#   first: `psfsim run ARGS` in a fresh process with an empty wisdom cache (XDG_CACHE_HOME
#          a new empty folder, no --wisdom; FFTW reads no system wisdom here: /etc/fftw);
#   warm:  the same command again, in a new process, with the cache the first run left.
# Both are process wall times (start to exit, the file write included), as a user sees
# them. Cases: N = 32, 64, ..., MAX_N at --pad-factor 2, configs/airy.toml, and N = 16384 at
# --pad-factor 1 --crop 64.
#
#   bench/first-run.sh [build-dir]        (default build; PSFSIM=path/to/psfsim overrides)
#
# Environment: MAX_N (default 8192: M = 16384 needs 4 GiB; 16384 needs 16 GiB), ROUNDS
# (default 3: every case that many times, interleaved; medians kept), BIG (default 1: 0
# leaves out the N = 16384 --pad-factor 1 case, which takes about a minute a round).
# Output: the table on stdout and in $OUT/first-run.md (OUT unset: ./first-run-out), the raw
# rows in first-run.tsv beside it. Needs bash, awk, date and psfsim.
set -euo pipefail
build=${1:-build}
psfsim=${PSFSIM:-$build/apps/psfsim}
[ -x "$psfsim" ] || { echo "first-run.sh: no $psfsim (build the psfsim target)" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$PWD/first-run-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rounds=${ROUNDS:-3}
max_n=${MAX_N:-8192}

cases=()
for ((n = 32; n <= max_n; n *= 2)); do cases+=("--samples $n --pad-factor 2"); done
cases+=("-c $here/configs/airy.toml")
[ "${BIG:-1}" = 1 ] && cases+=("--samples 16384 --pad-factor 1 --crop 64")

# Seconds of wall time of one run, and its `plan` row (us; "-" where the table has none).
timed_run() {
  local cache=$1
  shift
  local t0 t1 plan
  t0=$(date +%s.%N)
  plan=$(XDG_CACHE_HOME=$cache "$psfsim" run --backend cpu "$@" --force -o "$scratch/x.h5" |
         awk '$1 == "plan" { p = $2 } END { print (p == "" ? "-" : p) }')
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v p="$plan" 'BEGIN { printf "%.3f\t%s", b - a, p }'
}

raw="$out/first-run.tsv"
printf 'case\tround\tfirst_s\tfirst_plan_us\twarm_s\twarm_plan_us\n' >"$raw"
for ((round = 1; round <= rounds; ++round)); do
  for c in "${cases[@]}"; do
    cache=$(mktemp -d -p "$scratch")
    # shellcheck disable=SC2086  # the case's words are the options
    first=$(timed_run "$cache" $c)
    # shellcheck disable=SC2086
    warm=$(timed_run "$cache" $c)
    rm -rf "$cache" "$scratch/x.h5"
    printf '%s\t%s\t%s\t%s\n' "$c" "$round" "$first" "$warm" >>"$raw"
  done
done

{
  echo "First run against warm run, $(date -u +%F), $(hostname -s 2>/dev/null || echo host):" \
    "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $psfsim;" \
    "medians of $rounds round(s), process wall times"
  echo
  echo "| case | first | warm | target 2 warm + 0.1 s | met | plan, first | plan, warm |"
  echo "|---|---|---|---|---|---|---|"
  awk -F'\t' -v here="$here/" '
    function median(list, n,    i, j, t, a) {
      n = split(list, a, " ")
      for (i = 1; i <= n; ++i)
        for (j = i + 1; j <= n; ++j) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function plan(list) { return list ~ /-/ ? "-" : sprintf("%.3f s", median(list) / 1e6) }
    NR == 1 { next }
    { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
      f[$1] = f[$1] " " $3; fp[$1] = fp[$1] " " $4; w[$1] = w[$1] " " $5; wp[$1] = wp[$1] " " $6 }
    END {
      for (i = 1; i <= n; ++i) {
        c = order[i]; a = median(f[c]); b = median(w[c]); t = 2 * b + 0.1; name = c
        sub(here, "", name)
        printf "| `%s` | %.2f s | %.2f s | %.2f s | %s | %s | %s |\n", name, a, b, t,
               a <= t ? "yes" : "**no**", plan(fp[c]), plan(wp[c])
      }
    }' "$raw"
} | tee "$out/first-run.md"
