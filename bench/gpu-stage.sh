#!/usr/bin/env bash
# Here, before a device call: copies into BUILD/gpu-libs the shared libraries a CUDA build
# made on the development machine needs and the GPU machine lacks (docs/performance.md's
# machines; bench/gpu-env.sh puts the folder last on the library path there), and stages the
# Python module's inputs (bench/python-gpu.sh stage). Carry BUILD/gpu-libs and
# BUILD/python-gpu-input with the call.
#
#   bench/gpu-stage.sh [build-dir]      (default build-gpu)
set -euo pipefail
build=${1:-build-gpu}
libs=$build/gpu-libs
rm -rf "$libs" && mkdir -p "$libs"
# CFITSIO and, through Debian's libcurl-gnutls, the libraries Ubuntu's host has not.
# Each by its soname, the link followed.
for name in libcfitsio.so.10 libcurl-gnutls.so.4 librtmp.so.1 libssh2.so.1 libpsl.so.5 \
            libnghttp2.so.14 libbrotlidec.so.1 libbrotlicommon.so.1 libldap-2.5.so.0 \
            liblber-2.5.so.0 libunistring.so.2; do
  cp -L "/lib/x86_64-linux-gnu/$name" "$libs/"
done
# The executables a call carries travel without their symbols (the carry has a size limit).
for exe in "$build"/apps/psfsim "$build"/tests/psfsim_tests "$build"/bench/psfsim_* \
           "$build"/baseline/*; do
  [ -f "$exe" ] && [ -x "$exe" ] && strip "$exe"
done
du -sh "$libs"
if [ -e "$build/apps/libpsfsim_cli.a" ]; then bench/python-gpu.sh stage "$build"; fi
