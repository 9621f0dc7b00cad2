#!/usr/bin/env bash
# Fuzzes psfsim's parsers (fuzz/parsers_fuzz.cpp) for SECONDS with libFuzzer, ASan and UBSan.
# Builds with Clang into build-fuzz/; the committed seeds in fuzz/corpus/ start a working
# corpus in build-fuzz/corpus/ that grows across runs; a crash leaves its input in
# build-fuzz/artifacts/ and makes this script fail.
#
#   fuzz/run.sh SECONDS [JOBS]        e.g. fuzz/run.sh 600
set -euo pipefail
seconds=${1:?usage: fuzz/run.sh SECONDS [JOBS]}
jobs=${2:-1}
cd "$(dirname "$0")/.."
command -v clang++ >/dev/null || { echo "fuzz/run.sh: needs clang (apt-get install clang)"; exit 2; }
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DPSFSIM_FUZZ=ON -DPSFSIM_CUDA=OFF \
  -DPSFSIM_BUILD_TESTS=OFF -DPSFSIM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j2 --target psfsim_parsers_fuzz
mkdir -p build-fuzz/corpus build-fuzz/artifacts
cp -n fuzz/corpus/* build-fuzz/corpus/ 2>/dev/null || true
# Several jobs run as separate processes, each logging to build-fuzz/fuzz-N.log.
parallel=()
((jobs > 1)) && parallel=(-jobs="$jobs" -workers="$jobs")
cd build-fuzz
# detect_leaks: HDF5 keeps its library state to the end of the process on purpose.
ASAN_OPTIONS=detect_leaks=0 fuzz/psfsim_parsers_fuzz corpus "${parallel[@]}" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix=artifacts/ -print_final_stats=1
