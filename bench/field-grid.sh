#!/usr/bin/env bash
# A field grid in one run (docs/field.md): coma growing linearly with field plus astigmatism,
# every frame at its own field point, on the named backend. Prints the run's compute time
# (the median of /timings/total over the repeats after the first: the in-process figure,
# without the process's start-up) and the whole process's wall time of a single repeat.
#
#   bench/field-grid.sh cpu  [build-dir]   9 x 9 points, N = 128, K = 64, monochromatic
#   bench/field-grid.sh cuda [build-dir]   32 x 32 points x 10 wavelengths, N = 256, K = 128
#
# float32; the frames go to the file, as a user's run writes them.
set -euo pipefail
backend=${1:?usage: bench/field-grid.sh cpu|cuda [build-dir]}
build=${2:-build}
psfsim=$PWD/$build/apps/psfsim
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
field="--seidel-field 1,3,1,0.25 --seidel-field 2,2,2,0.1"
case $backend in
  cpu) args="--samples 128 --crop 64 --field-grid 9,9" ;;
  cuda) args="--samples 256 --crop 128 --field-grid 32,32 --band 500nm-600nm,10 --diameter 1m
              --pixel-scale 55mas" ;;
  *) echo "unknown backend $backend" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
"$psfsim" run --backend "$backend" $args $field --repeat 6 --quiet --force -o "$scratch/grid.h5"
"$python" - "$scratch/grid.h5" "$backend" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    total = f["timings/total"][...][1:]
    psf = f["psf"]
    waves = len(f["spectrum/wavelength_m"]) if "spectrum" in f else 1
    print(f"{sys.argv[2]}: {psf.shape[0]} field points x {waves} wavelengths, "
          f"N = {f['psf'].attrs['samples']}, K = {psf.shape[1]}: compute median "
          f"{np.median(total) * 1e3:.2f} ms (min {total.min() * 1e3:.2f}, max "
          f"{total.max() * 1e3:.2f}, {len(total)} repeats); "
          f"{psf.shape[0] * waves / np.median(total):.0f} PSFs/s")
PY
TIMEFORMAT="$backend: whole process, one repeat: %R s"
# shellcheck disable=SC2086
time "$psfsim" run --backend "$backend" $args $field --quiet --force -o "$scratch/once.h5"
