#!/usr/bin/env python3
"""Runs a plot script on a file and checks that it writes a PNG that decodes to a real image.
Usage: check_plot.py PLOT_SCRIPT INPUT.h5 OUTPUT.png [extra arguments for the script]"""
import os
import subprocess
import sys

script, source, image, *extra = sys.argv[1:]

# matplotlib is a declared (Debian) dependency of these tests: its absence is a failure.
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image
except ImportError:
    sys.exit(f"FAIL: matplotlib is not importable by {sys.executable}; install "
             "python3-matplotlib (Debian) or configure with -DPSFSIM_PYTHON=/path/to/python3")

if os.path.exists(image):
    os.remove(image)  # a PNG left by an earlier run must not pass for this one
env = dict(os.environ, MPLBACKEND="Agg")
cmd = [sys.executable, script, source, "-o", image, *extra]
result = subprocess.run(cmd, env=env, capture_output=True, text=True)
sys.stdout.write(result.stdout)
sys.stderr.write(result.stderr)
if result.returncode != 0:
    sys.exit(f"FAIL: {' '.join(cmd)} exited with {result.returncode}")
if not os.path.isfile(image) or os.path.getsize(image) == 0:
    sys.exit(f"FAIL: {image} is missing or empty")
with open(image, "rb") as f:
    if f.read(8) != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"FAIL: {image} is not a PNG")
pixels = matplotlib.image.imread(image)
if pixels.shape[0] < 200 or pixels.shape[1] < 200:
    sys.exit(f"FAIL: {image} is only {pixels.shape[1]}x{pixels.shape[0]} pixels")
if float(pixels[..., :3].std()) == 0:
    sys.exit(f"FAIL: {image} is a blank image")
print(f"ok: {image}, {pixels.shape[1]}x{pixels.shape[0]} pixels, {os.path.getsize(image)} bytes")
