#!/usr/bin/env bash
# Everything a session checks on the GPU machine, in one call of the device tool: the GPU
# check (bench/gpu-check.sh: CUDA tests, compute-sanitizer, latency, batches, the size sweep,
# the writer against dd), then the CPU thread table of that host's cores
# (bench/cpu-threads.sh). Run from the repository root there, with the CUDA build folder
# built on the development machine and carried with the call:
#
#   bench/gpu-session.sh [build-dir]        (default build-gpu)
#
# The carried paths: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/bench,
# BUILD/CMakeCache.txt and BUILD/gpu-libs, the libraries the GPU machine lacks (copied from
# the development machine's /lib/x86_64-linux-gnu, put last on the library path so that the
# host's own come first).
set -u
build=${1:-build-gpu}
out=${OUT:-$PWD/gpu-session-out}
mkdir -p "$out"
source bench/gpu-env.sh
missing=$(ldd "$build/apps/psfsim" "$build/tests/psfsim_tests" | grep 'not found' | sort -u)
[ -z "$missing" ] || { echo "gpu-session.sh: libraries missing here:"; echo "$missing"; exit 2; }
status=0
OUT="$out" bench/gpu-check.sh "$build" || status=1
echo "== CPU threads for one PSF on this host's $(nproc) cores"
OUT="$out" ROUNDS=2 bench/cpu-threads.sh "$build" || status=1
exit $status
