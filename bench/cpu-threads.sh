#!/usr/bin/env bash
# CPU threads for one PSF (docs/spec.md §10, "CPU threads"): for each N in 32..2048 (M = 2N,
# float32,
# one wave of rho^2 cos(phi)), time `psfsim sweep --backends cpu --batch 1` with --threads T
# for T in {1, 2, 4, ..., cores} (and cores itself when it is no power of two) and with the
# default (--threads 0: psfsim's choice), then print one table: the median total per T, the
# best T, the default's time and its ratio to the best. Each (N, T) is its own process,
# planned with the effort one PSF's run gets (EFFORT below); with EFFORT=measure one scratch
# wisdom file is shared so that planning is paid once per (M, threads) and then only read.
#
#   bench/cpu-threads.sh [build-dir]        (default build)
#
# Environment: SIZES (default "32 64 128 256 512 1024 2048"), ROUNDS (default 1: with more,
# every (N, T) is timed that many times, interleaved, and the smallest median kept, which
# damps a noisy machine), REPEAT_SCALE (default 1: multiplies the repeats per N below),
# WISDOM (a wisdom file to use and keep, e.g. to share planning between two builds; default
# a scratch file), EFFORT (default estimate: the planner effort of one PSF's run, whatever
# the repeats; `measure` times the plans a long batch gets).
# Output: the table on stdout and in $OUT/cpu-threads-<cores>cores.md (OUT unset:
# ./cpu-threads-out), the raw rows (every round) in cpu-threads-<cores>cores.tsv beside it.
# Needs only bash, awk and psfsim: the sweep's printed table is parsed (its /sweep file is
# written to a scratch folder and dropped). No --quiet: today it prints no table at all.
set -euo pipefail
build=${1:-build}
psfsim=$build/apps/psfsim
[ -x "$psfsim" ] || { echo "cpu-threads.sh: no $psfsim (build the psfsim target)" >&2; exit 2; }
out=${OUT:-$PWD/cpu-threads-out}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sizes=${SIZES:-"32 64 128 256 512 1024 2048"}
rounds=${ROUNDS:-1}
scale=${REPEAT_SCALE:-1}
wisdom=${WISDOM:-$scratch/wisdom}
effort=${EFFORT:-estimate}
cores=$(nproc)
host=$(hostname -s 2>/dev/null || echo host)
tag="${cores}cores"

threads=()
for ((t = 1; t <= cores; t *= 2)); do threads+=("$t"); done
[ "${threads[-1]}" -eq "$cores" ] || threads+=("$cores")

# Repeats per N: about a second or less of timed work per (N, T) on one core.
repeats_for() {
  local r
  case $1 in
    32) r=3000 ;; 64) r=2000 ;; 128) r=1000 ;; 256) r=300 ;; 512) r=100 ;;
    1024) r=30 ;; 2048) r=10 ;; *) r=20 ;;
  esac
  r=$(awk -v r="$r" -v s="$scale" 'BEGIN { v = int(r * s); print (v < 3 ? 3 : v) }')
  echo "$r"
}

raw="$out/cpu-threads-$tag.tsv"
printf 'N\tT\ttotal_us\tpupil_us\tfft_us\tintensity_us\n' >"$raw"
for ((round = 1; round <= rounds; ++round)); do
  for n in $sizes; do
    r=$(repeats_for "$n")
    for t in "${threads[@]}" 0; do
      # The printed rows' columns are found by the header's names (its first line).
      "$psfsim" sweep --backends cpu --sizes "$n" --threads "$t" --batch 1 --repeat "$r" \
        --fft-effort "$effort" --wisdom "$wisdom" --force -o "$scratch/sweep.h5" |
        awk -v t="$t" '
          NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
          $1 == "cpu" { printf "%s\t%s\t%s\t%s\t%s\t%s\n", $col["N"], t, $col["total"],
                               $col["pupil"], $col["fft|mft"], $col["intensity"] }' >>"$raw"
    done
  done
done

{
  echo "CPU threads, one PSF (B = 1, float32, M = 2N), $(date -u +%F), $host: $cores cores" \
    "($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))"
  echo "median total [us] per --threads T (smallest of $rounds round(s)); default = --threads 0;" \
    "--fft-effort $effort"
  echo
  awk -F'\t' -v list="${threads[*]}" '
    NR == 1 { next }
    { key = $1 SUBSEP $2
      if (!(key in best) || $3 < best[key]) { best[key] = $3; fft[key] = $5 }
      if (!($1 in seen)) { seen[$1] = 1; order[++ns] = $1 } }
    END {
      nt = split(list, ts, " ")
      head = "| N (M) |"; rule = "|---|"
      for (i = 1; i <= nt; ++i) { head = head " T=" ts[i] " |"; rule = rule "---|" }
      print head " best T | default | default / best | default fft |"
      print rule "---|---|---|---|"
      for (s = 1; s <= ns; ++s) {
        n = order[s]; line = "| " n " (" 2 * n ") |"; bt = ""; bv = 0
        for (i = 1; i <= nt; ++i) {
          k = n SUBSEP ts[i]
          if (k in best) {
            line = line sprintf(" %.1f |", best[k])
            if (bt == "" || best[k] < bv) { bt = ts[i]; bv = best[k] }
          } else line = line " - |"
        }
        k = n SUBSEP 0
        if (k in best && bv > 0)
          line = line sprintf(" %s | %.1f | %.2f | %.1f |", bt, best[k], best[k] / bv, fft[k])
        else line = line " " bt " | - | - | - |"
        print line
      }
    }' "$raw"
} | tee "$out/cpu-threads-$tag.md"
