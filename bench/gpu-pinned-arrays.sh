#!/usr/bin/env bash
# A Python batch's new NumPy array as pinned memory the device copies into
# (Backend::host_frame_memory) against the build before it, on the GPU machine in one call of
# the device tool: the CUDA tests with this build, then batches from Python into a new NumPy
# array, into the caller's (out=) and into a torch tensor, each module in turn, ROUNDS rounds
# (bench/python_chunk_probe.py --host), the engine's MFT to host at the targets' shapes beside
# the baseline (bench/gpu-env.sh's mft), one round, and last the module's tests with this
# build (at most 240 s: the figures come back first where the call runs out of time).
#
#   [ROUNDS=2] bench/gpu-pinned-arrays.sh BUILD BASE
#
# Carried: BUILD/apps/psfsim, BUILD/tests/psfsim_tests, BUILD/CMakeCache.txt, BUILD/gpu-libs,
# BUILD/python-gpu-input, and BASE/psfsim with BASE/python-gpu-input (and BASE/src, the
# earlier tree), as bench/gpu-python-against-baseline.sh takes them; tarballs BUILD/*.tar.xz
# and BASE/*.tar.xz are unpacked in place first (the carry's size limit).
set -u
build=${1:?usage: bench/gpu-pinned-arrays.sh BUILD BASE}
base=${2:?usage: bench/gpu-pinned-arrays.sh BUILD BASE}
for t in "$build"/*.tar.xz "$base"/*.tar.xz; do
  [ -f "$t" ] && tar -xJf "$t" -C "$(dirname "$t")"
done
source bench/gpu-env.sh
out=${OUT:-$PWD/gpu-pinned-out}
mkdir -p "$out"
status=0
echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
echo "== CUDA tests"
cuda_tests "$build/tests/psfsim_tests" || status=1
echo "== Python batches, baseline then current"
OUT=$out ROUNDS=${ROUNDS:-2} ARGS=--host SCRIPTS=bench/python_chunk_probe.py \
  bench/gpu-python-against-baseline.sh "$build" "$base" || status=1
echo "== the engine's MFT to host, float32, baseline then current (targets: 128/64 >= 3.1M, 64/32 >= 12M)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for shape in "128 64 4096" "128 64 16384" "64 32 4096" "64 32 16384"; do
  for exe in "$base/psfsim" "$build/apps/psfsim"; do
    # shellcheck disable=SC2086
    echo "N,K,B=$shape $exe: $(mft "$exe" $shape)"
  done
done | tee "$out/mft.txt"
grep -q FAILED "$out/mft.txt" && status=1
echo "== the module's tests with this build"
timeout 240 bench/python-gpu.sh test "$build" >"$out/python-tests.txt" 2>&1 || status=1
tail -n 5 "$out/python-tests.txt"
exit $status
