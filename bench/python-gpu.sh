#!/usr/bin/env bash
# The Python module on the GPU machine, whose python3 (3.12, a venv with torch, CuPy and JAX)
# is not the development machine's (Debian's 3.11): pybind11 has no stable ABI, so a module
# built here cannot load there. The binding's four sources are compiled there against that
# Python's headers and pybind11 (the venv's pip pybind11), and linked with the static
# libraries of a CUDA build made here (position-independent code, as every build with the
# Python module makes them).
#
#   bench/python-gpu.sh stage [build-dir]   here: gathers what the GPU machine lacks into
#                                           BUILD/python-gpu-input (carry it with the call)
#   bench/python-gpu.sh build [build-dir]   there: builds BUILD/python-gpu/psfsim
#   bench/python-gpu.sh test  [build-dir]   there: builds, then runs python/tests with it
#
# What `stage` gathers: the static libraries, the generated build_config.hpp, and the headers
# the GPU machine has not or has in other versions (CLI11, whose inline code the static
# libraries were compiled with, and DLPack's). Default build folder: build-gpu.
set -euo pipefail
mode=${1:?usage: bench/python-gpu.sh stage|build|test [build-dir]}
build=${2:-build-gpu}
input=$build/python-gpu-input
libraries=(apps/libpsfsim_cli.a backends/libpsfsim_backends.a cuda/libpsfsim_cuda.a
           cpu/libpsfsim_cpu.a lib/io/libpsfsim_io.a lib/run/libpsfsim_run.a
           lib/model/libpsfsim_model.a)

stage() {
  rm -rf "$input" && mkdir -p "$input/lib" "$input/include"
  for a in "${libraries[@]}"; do cp "$build/$a" "$input/lib/"; done
  cp -r "$build/lib/run/generated/psfsim" "$input/include/"
  cp -r /usr/include/CLI "$input/include/"
  cp -r /usr/include/dlpack "$input/include/"
  du -sh "$input"
}

build_module() {
  local python=${PYTHON:-python3}
  local include pybind suffix package=$build/python-gpu/psfsim
  include=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
  pybind=$("$python" -c "import pybind11; print(pybind11.get_include())")
  suffix=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
  rm -rf "$package" && mkdir -p "$package"
  cp python/psfsim/*.py python/psfsim/*.pyi python/psfsim/py.typed "$package/"
  local archives=()
  for a in "${libraries[@]}"; do archives+=("$input/lib/$(basename "$a")"); done
  echo "== the binding for $("$python" --version) ($include; pybind11 $pybind)"
  local objects=() pids=()
  mkdir -p "$build/python-gpu/objects"
  for src in python/src/*.cpp; do
    local object=$build/python-gpu/objects/$(basename "$src" .cpp).o
    objects+=("$object")
    g++ -std=c++20 -O3 -DNDEBUG -fPIC -fvisibility=hidden -c "$src" -o "$object" \
      -I"$input/include" -Ipython/src -Iapps -Ilib/model/include -Ilib/run/include \
      -Ilib/io/include -Ibackends/include -Icpu/include -Icuda/include \
      -isystem "$pybind" -isystem "$include" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  # The libraries by soname: the GPU machine has the runtimes, not always their -dev links.
  g++ -shared -o "$package/_psfsim$suffix" "${objects[@]}" \
    -Wl,--start-group "${archives[@]}" -Wl,--end-group -Wl,--as-needed \
    -L"$build/gpu-libs" -l:libcfitsio.so.10 -l:libhdf5_serial.so.103 -l:libhdf5_serial_hl.so.100 \
    -l:libfftw3.so.3 -l:libfftw3f.so.3 -l:libfftw3_omp.so.3 -l:libfftw3f_omp.so.3 -lgomp \
    -L/usr/local/cuda/lib64 -l:libcufft.so.12 -l:libcudart.so.13 -ldl -lpthread \
    -Wl,-rpath,/usr/local/cuda/lib64
  echo "built $package/_psfsim$suffix"
}

case $mode in
  stage) stage ;;
  build) build_module ;;
  test)
    build_module
    export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$PWD/$build/gpu-libs
    export PYTHONPATH=$PWD/$build/python-gpu PSFSIM_EXECUTABLE=$PWD/$build/apps/psfsim
    export PYTHONDONTWRITEBYTECODE=1
    "${PYTHON:-python3}" -m pytest -q -rs -p no:cacheprovider python/tests ;;
  *) echo "python-gpu.sh: unknown mode '$mode' (stage, build or test)" >&2; exit 2 ;;
esac
