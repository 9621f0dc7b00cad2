#!/usr/bin/env bash
# Time psfsim over pupil sizes on every usable backend, plot the timings, then compute a
# through-focus series and plot it. Run from the repository root:
#
#   scripts/sweep_and_plot.sh [OUTDIR]          (default OUTDIR: psfsim-plots)
#
# Environment: PSFSIM (default ./build/apps/psfsim), PYTHON (default /usr/bin/python3, which
# has NumPy, h5py and matplotlib on Debian). Writes OUTDIR/sweep.h5, sweep.png, focus.h5,
# focus.png.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
docs="$here/../docs"
psfsim=${PSFSIM:-./build/apps/psfsim}
python=${PYTHON:-/usr/bin/python3}
outdir=${1:-psfsim-plots}

die() { echo "sweep_and_plot.sh: error: $*" >&2; exit 1; }

[[ $# -le 1 ]] || die "usage: scripts/sweep_and_plot.sh [OUTDIR]"
[[ -x "$psfsim" ]] || die "psfsim not found at '$psfsim': build it (cmake --build build) or set PSFSIM=/path/to/psfsim"
command -v "$python" >/dev/null || die "python not found at '$python': set PYTHON=/path/to/python3"
"$python" -c "import numpy, h5py, matplotlib" 2>/dev/null \
  || die "$python cannot import numpy, h5py and matplotlib (Debian: apt install python3-numpy python3-h5py python3-matplotlib)"
mkdir -p "$outdir" || die "cannot create $outdir"

# Plots only go to files; no display is needed.
export MPLBACKEND=Agg

echo "== 1/4 sweep: N = 32..512, cpu and cuda (an unusable backend is reported and skipped)"
"$psfsim" sweep --sizes 32,64,128,256,512 --backends cpu,cuda --precisions single \
  --repeat 20 -o "$outdir/sweep.h5" --force

echo "== 2/4 plot the sweep"
"$python" "$docs/plot_sweep.py" "$outdir/sweep.h5" -o "$outdir/sweep.png"

echo "== 3/4 through focus: Z4 (defocus, waves RMS) from -1 to 1 in 9 frames"
"$psfsim" run --samples 128 --vary Z4,-1,1,9 -o "$outdir/focus.h5" --force --quiet

echo "== 4/4 plot 5 of the 9 frames (both ends and best focus), out to 16 lambda/D"
"$python" "$docs/plot_psf.py" "$outdir/focus.h5" --frames 5 --extent 16 -o "$outdir/focus.png"

echo "done: $outdir/sweep.png and $outdir/focus.png"
