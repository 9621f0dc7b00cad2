#!/usr/bin/env python3
"""Runs a plot script on a file and checks that it writes a PNG that decodes to a real image,
and that every text the saved figure draws (titles, labels, tick labels, legends) lies inside
the figure, so that none is cut off at an edge. The script runs in this process, under
matplotlib's Agg backend, with matplotlib's Text.draw watched: what the last draw of a figure
(the one savefig makes) puts on the canvas is what is checked.
Usage: check_plot.py [--expect TEXT]... [--reject TEXT]... PLOT_SCRIPT INPUT.h5 OUTPUT.png
                     [extra arguments for the script]
--expect TEXT: some drawn text contains TEXT; --reject TEXT: none does."""
import os
import runpy
import sys

args = sys.argv[1:]
expect, reject = [], []
while args and args[0] in ("--expect", "--reject"):
    (expect if args[0] == "--expect" else reject).append(args[1])
    args = args[2:]
script, source, image, *extra = args

# matplotlib is a declared (Debian) dependency of these tests: its absence is a failure.
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.figure
    import matplotlib.image
    import matplotlib.text
except ImportError:
    sys.exit(f"FAIL: matplotlib is not importable by {sys.executable}; install "
             "python3-matplotlib (Debian) or configure with -DPSFSIM_PYTHON_EXECUTABLE=/path/to/python3")

drawn = []  # (text, window extent, canvas width, canvas height) of the latest figure draw
figure_draw, text_draw = matplotlib.figure.Figure.draw, matplotlib.text.Text.draw


def watched_figure_draw(self, renderer):
    drawn.clear()
    return figure_draw(self, renderer)


def watched_text_draw(self, renderer):
    text_draw(self, renderer)
    if renderer is not None and self.get_visible() and self.get_text().strip():
        drawn.append((self.get_text(), self.get_window_extent(renderer), renderer.width,
                      renderer.height))


matplotlib.figure.Figure.draw = watched_figure_draw
matplotlib.text.Text.draw = watched_text_draw

if os.path.exists(image):
    os.remove(image)  # a PNG left by an earlier run must not pass for this one
command = f"{script} {source} -o {image} {' '.join(extra)}"
sys.argv = [script, source, "-o", image, *extra]
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # its plot_common.py
try:
    runpy.run_path(script, run_name="__main__")
except SystemExit as e:
    if e.code not in (None, 0):
        sys.exit(f"FAIL: {command} exited with {e.code}")

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

failures = []
if not drawn:
    failures.append("the figure drew no text")
for words, box, width, height in drawn:
    # Half a pixel of slack: antialiased glyph edges are measured to fractions of a pixel.
    if box.x0 < -0.5 or box.y0 < -0.5 or box.x1 > width + 0.5 or box.y1 > height + 0.5:
        failures.append(f"text {words!r} spans x {box.x0:.1f}..{box.x1:.1f}, y "
                        f"{box.y0:.1f}..{box.y1:.1f}: outside the {width:.0f}x{height:.0f} "
                        "figure")
texts = [words for words, *_ in drawn]
for want in expect:
    if not any(want in t for t in texts):
        failures.append(f"no drawn text contains {want!r}")
for unwanted in reject:
    for t in texts:
        if unwanted in t:
            failures.append(f"drawn text {t!r} contains {unwanted!r}")
if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print(f"ok: {image}, {pixels.shape[1]}x{pixels.shape[0]} pixels, {os.path.getsize(image)} "
      f"bytes, {len(drawn)} texts inside the figure")
