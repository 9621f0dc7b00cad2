#!/usr/bin/env bash
# The Debian packages of a plugin build on the GPU machine, where NVIDIA's libraries are in
# /usr/local/cuda: extracts psfsim and psfsim-cuda into a folder (the machine is not Debian,
# so dpkg -i would refuse Debian's dependency names), then checks that the packaged psfsim
# needs none of NVIDIA's libraries and sees the GPU through the plugin (psfsim info, a run on
# the cuda backend), and that the Python module does too: python3-psfsim is built for
# Debian's Python, so a module is built there for that machine's Python from the same build's
# static libraries (bench/python-gpu.sh), and finds the same plugin.
#
#   here:  cmake -S . -B build-deb -DPSFSIM_CUDA=ON -DPSFSIM_CUDA_PLUGIN=ON -DCMAKE_INSTALL_PREFIX=/usr ...
#          cmake --build build-deb && (cd build-deb && cpack -G DEB) && bench/python-gpu.sh stage build-deb
#   there: bench/gpu-packages.sh [build-deb]
# with BUILD/*.deb, BUILD/python-gpu-input and BUILD/gpu-libs (gpu-session.sh) carried.
set -euo pipefail
build=${1:-build-deb}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
for package in "$build"/psfsim_*.deb "$build"/psfsim-cuda_*.deb; do dpkg-deb -x "$package" "$root"; done
psfsim=$root/usr/bin/psfsim
plugin=$(find "$root" -name libpsfsim-cuda.so)
echo "== the packages' files"
find "$root" -type f \( -name psfsim -o -name '*.so' \) | sed "s|$root||"
echo "== what the packaged psfsim links of NVIDIA's (nothing expected)"
ldd "$psfsim" | grep -Ei 'cuda|cufft|cublas' || echo "none"
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PWD/$build/gpu-libs
export PSFSIM_PLUGIN_PATH=$(dirname "$plugin")
echo "== psfsim info (plugin from $PSFSIM_PLUGIN_PATH)"
"$psfsim" info
echo "== psfsim run --backend cuda"
"$psfsim" run --backend cuda --samples 128 -o "$root/x.h5" --quiet && echo "ran on the GPU"
echo "== without the plugin: auto falls back, cuda is refused"
PSFSIM_PLUGIN_PATH=$root/none "$psfsim" run --samples 32 -o "$root/y.h5" --quiet && echo "auto ran"
PSFSIM_PLUGIN_PATH=$root/none "$psfsim" run --backend cuda --samples 32 -o "$root/z.h5" --quiet ||
  echo "exit $?"
echo "== the module, built here for $(python3 --version)"
bench/python-gpu.sh build "$build" | tail -n 1
PYTHONPATH=$PWD/$build/python-gpu python3 -c "
import psfsim
print('backends', psfsim.backends())
sim = psfsim.Simulator(backend='cuda', samples=128, result='device')
frames = sim()
print(sim.device, frames, frames.__cuda_array_interface__['data'][0] != 0)"
