#!/usr/bin/env bash
# Two MPI ranks against one process (docs/spec.md §10: two CPU ranks of one thread >= 1.7x one):
# the same `psfsim run` batch (N = 128, M = 256, float32, --crop 64, a --vary series of B
# frames, CPU backend, --threads 1) timed ROUNDS times as one process and as
# `mpirun -n 2`, alternating, so that a busy machine slows both sides alike. Two figures per
# run: the compute rate psfsim prints (B / the slowest rank's median `total`, frames in host
# memory, the write excluded) and the wall time of the whole command (mpirun's start-up, the
# writes and the join included). Prints each run and the medians.
#
#   bench/mpi-scaling.sh [build-dir]       (default build)
#
# Environment: FRAMES (default 16384), ROUNDS (default 7), RANKS (default 2), CROP (default
# 64), MPIRUN_OPTIONS (added to mpirun's, e.g. "--mca pml ob1"), OUT (a folder
# for the files, default a scratch folder: a tmpfs keeps the disk out of the figures).
set -euo pipefail
build=${1:-build}
psfsim=$build/apps/psfsim
[ -x "$psfsim" ] || { echo "mpi-scaling.sh: no $psfsim" >&2; exit 2; }
"$psfsim" info | grep -q "MPI: compiled in" || { echo "mpi-scaling.sh: $psfsim has no MPI" >&2; exit 2; }
frames=${FRAMES:-16384}
rounds=${ROUNDS:-7}
ranks=${RANKS:-2}
crop=${CROP:-64}
read -ra mpi_options <<<"${MPIRUN_OPTIONS:-}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=${OUT:-$scratch}
export XDG_CACHE_HOME=$scratch/cache  # one wisdom cache: both sides compute with the same plans
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run=(run --backend cpu --samples 128 --crop "$crop" --vary "Z4,-1,1,$frames" --threads 1 --quiet
     --force)

wall() {  # prints the command's stdout, then "wall SECONDS"
  local t0 t1
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  echo "wall $(echo "$t1 - $t0" | bc)"
}

"$psfsim" "${run[@]}" -o "$out/one.h5" >/dev/null                  # plans into the cache
mpirun -n "$ranks" "${mpi_options[@]}" "$psfsim" "${run[@]}" -o "$out/many.h5" >/dev/null
: >"$scratch/rows"
for ((i = 1; i <= rounds; i++)); do
  wall "$psfsim" "${run[@]}" -o "$out/one.h5" |
    awk -v r="$i" '/^PSFs\/s/ {rate = $3} /^wall/ {print r, "one", rate, $2}' >>"$scratch/rows"
  wall mpirun -n "$ranks" "${mpi_options[@]}" "$psfsim" "${run[@]}" -o "$out/many.h5" |
    awk -v r="$i" '/^all/ {rate = $2} /^wall/ {print r, "many", rate, $2}' >>"$scratch/rows"
  tail -n 2 "$scratch/rows"
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
one_rate=$(awk '$2 == "one" {print $3}' "$scratch/rows" | median)
many_rate=$(awk '$2 == "many" {print $3}' "$scratch/rows" | median)
one_wall=$(awk '$2 == "one" {print $4}' "$scratch/rows" | median)
many_wall=$(awk '$2 == "many" {print $4}' "$scratch/rows" | median)
echo
echo "B = $frames, N = 128, M = 256, --crop $crop, float32, --threads 1, $rounds rounds, medians:"
printf '%-22s %14s %12s\n' "" "compute PSFs/s" "wall [s]"
printf '%-22s %14.0f %12.2f\n' "1 process" "$one_rate" "$one_wall"
printf '%-22s %14.0f %12.2f\n' "mpirun -n $ranks" "$many_rate" "$many_wall"
printf '%-22s %14.2f %12.2f\n' "speed-up" "$(echo "$many_rate / $one_rate" | bc -l)" \
  "$(echo "$one_wall / $many_wall" | bc -l)"
