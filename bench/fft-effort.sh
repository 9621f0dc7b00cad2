#!/usr/bin/env bash
# FFTW planner effort against the work (cpu/include/psfsim/cpu/tuning.hpp,
# measure_planning_frames): for each padded size M (N = M/2, float32, one thread, one wave of
# rho^2 cos(phi)), run
#   psfsim run --samples N --pad-factor 2 --repeat R --threads 1 --fft-effort E
# with E = estimate (no wisdom) and E = measure (a fresh wisdom file, so that it plans), and
# print per M the planning time (the table's `plan` row, /timings/plan) and the median FFT
# stage of each, then
#   planning in frames:  plan_measure / fft_estimate, the measured planning in frames' worth
#                        of the estimate's transforms (tuning.hpp's table holds these);
#   measure pays from:   (plan_measure - plan_estimate) / (fft_estimate - fft_measure), the
#                        frames from which the measured plan is paid back ("never" if it is
#                        not faster).
#
#   bench/fft-effort.sh [build-dir]        (default build)
#
# Environment: SIZES (default "64 128 256 512 1024 2048 4096 8192"; an entry N,Q,K runs
# --samples N --pad-factor Q --crop K instead, e.g. 16384,1,64), ROUNDS (default 3: each
# entry is run that many times, interleaved, and the median of each figure kept), PRECISION
# (default single), THREADS (default 1: the plans a batch's workers use).
# Output: the table on stdout and in $OUT/fft-effort.md (OUT unset: ./fft-effort-out), the
# raw rows in fft-effort.tsv beside it. Needs bash, awk and psfsim.
set -euo pipefail
build=${1:-build}
psfsim=$build/apps/psfsim
[ -x "$psfsim" ] || { echo "fft-effort.sh: no $psfsim (build the psfsim target)" >&2; exit 2; }
out=${OUT:-$PWD/fft-effort-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sizes=${SIZES:-"64 128 256 512 1024 2048 4096 8192"}
rounds=${ROUNDS:-3}
precision=${PRECISION:-single}
threads=${THREADS:-1}

repeats_for() {
  case ${1%%,*} in
    64) echo 2000 ;; 128) echo 1000 ;; 256) echo 300 ;; 512) echo 100 ;; 1024) echo 30 ;;
    2048) echo 10 ;; 4096) echo 5 ;; *) echo 3 ;;
  esac
}

# The options of an entry of SIZES.
shape() {
  local n q k
  IFS=, read -r n q k <<<"$1"
  if [ -z "$q" ]; then echo "--samples $((n / 2)) --pad-factor 2"
  else echo "--samples $n --pad-factor $q --crop $k"; fi
}

# One run's `plan` and median `fft` rows of the printed table, in microseconds.
one_run() {
  # shellcheck disable=SC2046  # the shape's words are options
  "$psfsim" run --backend cpu $(shape "$1") --repeat "$2" \
    --precision "$precision" --threads "$threads" --fft-effort "$3" --wisdom "$4" \
    --force -o "$scratch/x.h5" |
    awk '$1 == "plan" { p = $2 } $1 == "fft" { f = $2 } END { printf "%s\t%s", p, f }'
}

raw="$out/fft-effort.tsv"
printf 'M\tround\tplan_estimate_us\tfft_estimate_us\tplan_measure_us\tfft_measure_us\n' >"$raw"
for ((round = 1; round <= rounds; ++round)); do
  for m in $sizes; do
    r=$(repeats_for "$m")
    rm -f "$scratch/wisdom"
    estimate=$(one_run "$m" "$r" estimate none)
    measure=$(one_run "$m" "$r" measure "$scratch/wisdom")
    printf '%s\t%s\t%s\t%s\n' "$m" "$round" "$estimate" "$measure" >>"$raw"
  done
done

{
  echo "FFTW planner effort, $(date -u +%F), $(hostname -s 2>/dev/null || echo host):" \
    "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $precision," \
    "--threads $threads, M = 2N; medians of $rounds round(s)"
  echo
  echo "| M | plan, estimate | plan, measure | FFT, estimate | FFT, measure |" \
    "planning in frames | measure pays from |"
  echo "|---|---|---|---|---|---|---|"
  awk -F'\t' '
    function median(list, n,    i, j, t, a) {
      n = split(list, a, " ")
      for (i = 1; i <= n; ++i)
        for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function ms(us) {
      return us >= 1e4 ? sprintf("%.0f ms", us / 1e3) : sprintf("%.2f ms", us / 1e3)
    }
    NR == 1 { next }
    { if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
      pe[$1] = pe[$1] " " $3; fe[$1] = fe[$1] " " $4
      pm[$1] = pm[$1] " " $5; fm[$1] = fm[$1] " " $6 }
    END {
      for (i = 1; i <= n; ++i) {
        m = order[i]; a = median(pe[m]); b = median(fe[m]); c = median(pm[m]); d = median(fm[m])
        pays = b > d ? sprintf("%.0f frames", (c - a) / (b - d)) : "never"
        split(m, e, ",")
        name = e[2] == "" ? e[1] \
                          : sprintf("%d (N = %s, Q = %s, K = %s)", e[1] * e[2], e[1], e[2], e[3])
        printf "| %s | %s | %s | %s | %s | %.1f | %s |\n", name, ms(a), ms(c), ms(b), ms(d), c / b,
               pays
      }
    }' "$raw"
} | tee "$out/fft-effort.md"
