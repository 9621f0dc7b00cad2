#!/usr/bin/env python3
"""Plot a psfsim sweep file: time per PSF against the pupil size N (log-log, one line per
backend and precision, error bars from the fastest and slowest repeat) with the CPU/GPU
crossover marked, and, when the sweep has several batch sizes, PSFs/s against the batch.

  /usr/bin/python3 docs/plot_sweep.py sweep.h5               # -> sweep.png
  /usr/bin/python3 docs/plot_sweep.py sweep.h5 -o sweep.svg
"""
import argparse
import math
import os

from plot_common import PROG, fail, fit_titles, open_dataset_file, text  # beside this script

import numpy as np  # noqa: E402  (plot_common has checked that these import)
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import LogFormatter, NullFormatter  # noqa: E402

REQUIRED = ("backend", "precision", "samples", "batch", "total_median_s")

BACKEND_COLOURS = {"cpu": "tab:blue", "cuda": "tab:green"}
BACKEND_MAPS = {"cpu": "Blues", "cuda": "Greens"}
PRECISION_STYLES = {"single": "-", "double": "--"}


def parse_args():
    p = argparse.ArgumentParser(
        description="Plot the /sweep table of a file written by psfsim sweep: time per PSF "
                    "against N for each backend and precision, the CPU/GPU crossover, and "
                    "PSFs/s against the batch size when several were swept.",
        epilog="Example: /usr/bin/python3 docs/plot_sweep.py sweep.h5 -o sweep.png")
    p.add_argument("file", metavar="SWEEP.h5", help="HDF5 file written by psfsim sweep")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="image to write (default: SWEEP with the extension .png); the format "
                        "follows the extension (png, pdf, svg)")
    p.add_argument("--dpi", type=int, default=110, help="resolution of raster output (default 110)")
    return p.parse_args()


def seconds_label(t, _pos=None):
    """Tick label for a time in seconds, in the unit that keeps it short."""
    if t <= 0 or not math.isfinite(t):
        return ""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if t >= scale * 0.9999:
            return f"{t / scale:g} {unit}"
    return f"{t:.1e} s"


def rate_label(r, _pos=None):
    if r <= 0 or not math.isfinite(r):
        return ""
    for unit, scale in (("M", 1e6), ("k", 1e3)):
        if r >= scale:
            return f"{r / scale:g}{unit}"
    return f"{r:g}"


class UnitLogFormatter(LogFormatter):
    """matplotlib's choice of which log ticks to label (minor ones too when the axis spans
    little more than a decade), written with a unit instead of as powers of ten."""

    def __init__(self, label):
        super().__init__(labelOnlyBase=False)
        self.label = label

    def __call__(self, x, pos=None):
        return self.label(x) if super().__call__(x, pos) else ""


def log_axis_labels(axis, label):
    axis.set_major_formatter(UnitLogFormatter(label))
    axis.set_minor_formatter(UnitLogFormatter(label))


def read_rows(path):
    f = open_dataset_file(path, "sweep", "a file from psfsim run holds /psf; plot it with "
                          "docs/plot_psf.py")
    with f:
        table = f["sweep"][()]
        info = {k: text(f.attrs[k]) for k in ("psfsim_version", "device", "created_utc")
                if k in f.attrs}
    names = table.dtype.names or ()
    missing = [n for n in REQUIRED if n not in names]
    if missing:
        fail(f"{path}: /sweep lacks the field(s) {', '.join(missing)}")
    if table.size == 0:
        fail(f"{path}: /sweep has no rows")
    rows = []
    for r in np.atleast_1d(table):
        row = {n: r[n] for n in names}
        row["backend"], row["precision"] = text(r["backend"]), text(r["precision"])
        for n in ("samples", "batch"):
            row[n] = int(r[n])
        row["padded_size"] = int(r["padded_size"]) if "padded_size" in names else None
        row["crop"] = int(r["crop"]) if "crop" in names else 0
        for n in ("total_median_s", "total_min_s", "total_max_s", "psfs_per_second"):
            row[n] = float(r[n]) if n in names else float("nan")
        rows.append(row)
    return rows, info


def series(rows, batch):
    """{(backend, precision): rows at this batch, sorted by N}; one row per N."""
    out = {}
    for r in rows:
        if r["batch"] == batch:
            out.setdefault((r["backend"], r["precision"]), {}).setdefault(r["samples"], r)
    return {k: [v[n] for n in sorted(v)] for k, v in sorted(out.items())}


def crossover(cpu, gpu):
    """N where the GPU line first drops below the CPU line, interpolated linearly in
    (log N, log t); ('below', None) if the GPU is faster at every common N, ('above', None)
    if it never is, ('none', None) with fewer than one common N."""
    t_cpu = {r["samples"]: r["total_median_s"] / r["batch"] for r in cpu}
    t_gpu = {r["samples"]: r["total_median_s"] / r["batch"] for r in gpu}
    common = sorted(n for n in t_cpu if n in t_gpu and t_cpu[n] > 0 and t_gpu[n] > 0)
    if not common:
        return "none", None
    d = [math.log(t_gpu[n]) - math.log(t_cpu[n]) for n in common]  # < 0: the GPU is faster
    if d[0] < 0:
        return "below", None
    for i in range(len(common) - 1):
        if d[i] >= 0 > d[i + 1]:
            a, b = math.log(common[i]), math.log(common[i + 1])
            return "cross", math.exp(a + (b - a) * d[i] / (d[i] - d[i + 1]))
    return "above", None


def with_errors(ax, x, y, lo, hi, **kw):
    """Error bars from the fastest/slowest repeat; NaN bounds (absent fields) draw none."""
    lo_err = np.where(np.isfinite(lo), np.maximum(y - lo, 0), 0)
    hi_err = np.where(np.isfinite(hi), np.maximum(hi - y, 0), 0)
    ax.errorbar(x, y, yerr=[lo_err, hi_err], capsize=3, marker="o", ms=4, **kw)


def main():
    args = parse_args()
    rows, info = read_rows(args.file)
    batches = sorted({r["batch"] for r in rows})
    backends = sorted({r["backend"] for r in rows})
    b0 = batches[0]
    lines = series(rows, b0)

    two_panels = len(batches) > 1
    fig, axes = plt.subplots(1, 2 if two_panels else 1, figsize=(15.5 if two_panels else 8, 6),
                             squeeze=False, layout="constrained")
    ax = axes[0][0]
    ticks = {}
    for (backend, precision), rs in lines.items():
        n = np.array([r["samples"] for r in rs], dtype=float)
        t = np.array([r["total_median_s"] for r in rs]) / b0
        lo = np.array([r["total_min_s"] for r in rs]) / b0
        hi = np.array([r["total_max_s"] for r in rs]) / b0
        with_errors(ax, n, t, lo, hi, color=BACKEND_COLOURS.get(backend),
                    ls=PRECISION_STYLES.get(precision, ":"), label=f"{backend} {precision}")
        for r in rs:
            ticks.setdefault(r["samples"], r["padded_size"])

    notes = []
    if "cpu" in backends and "cuda" in backends:
        marked = 0
        for precision in sorted({p for (_, p) in lines}):
            cpu, gpu = lines.get(("cpu", precision)), lines.get(("cuda", precision))
            if not cpu or not gpu:
                continue
            kind, n_x = crossover(cpu, gpu)
            if kind == "cross":
                ax.axvline(n_x, color="0.35", ls="--", lw=1)
                ax.annotate(f"CPU/GPU crossover ({precision})\nN ≈ {n_x:.0f}",
                            xy=(n_x, 0.97 - 0.1 * marked), xycoords=("data", "axes fraction"),
                            xytext=(4, 0), textcoords="offset points", ha="left", va="top",
                            fontsize=9, color="0.25")
                marked += 1  # a second precision's label goes below the first
            elif kind == "below":
                notes.append(f"cuda faster than cpu at every N ({precision})")
            elif kind == "above":
                notes.append(f"cpu faster than cuda at every N ({precision})")
    title = f"time per PSF, batch {b0}"
    crops = sorted({r["crop"] for r in rows if 0 < r["crop"] != r["padded_size"]})
    if crops:  # a cropped transfer is cheaper: say so next to the numbers
        title += f", crop {'/'.join(map(str, crops))}"
    if len(backends) == 1:
        title += f": only the {backends[0]} backend in this sweep, no CPU/GPU crossover"
    elif notes:
        title += ": " + "; ".join(notes)
    ax.set_title(title, fontsize=10)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ns = sorted(ticks)
    ax.set_xticks(ns)
    ax.set_xticklabels([f"{n}\n({m})" if m else f"{n}" for n, m in ((n, ticks[n]) for n in ns)])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("N pupil samples (M padded size)")
    log_axis_labels(ax.yaxis, seconds_label)
    ax.set_ylabel("median time per PSF (bars: fastest and slowest repeat)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=9)

    if two_panels:
        ax2 = axes[0][1]
        keys = sorted({(r["backend"], r["precision"]) for r in rows})
        all_n = sorted({r["samples"] for r in rows})
        for backend, precision in keys:
            cmap = plt.get_cmap(BACKEND_MAPS.get(backend, "Greys"))
            for k, n in enumerate(all_n):
                rs = sorted((r for r in rows if r["backend"] == backend
                             and r["precision"] == precision and r["samples"] == n),
                            key=lambda r: r["batch"])
                if not rs:
                    continue
                b = np.array([r["batch"] for r in rs], dtype=float)
                tot = np.array([r["total_median_s"] for r in rs])
                rate = np.array([r["psfs_per_second"] for r in rs])
                rate = np.where(np.isfinite(rate), rate, b / tot)
                # the slowest repeat gives the lowest rate
                lo = b / np.array([r["total_max_s"] for r in rs])
                hi = b / np.array([r["total_min_s"] for r in rs])
                shade = 0.4 + 0.55 * (k / max(len(all_n) - 1, 1))  # darker: larger N
                with_errors(ax2, b, rate, lo, hi, color=cmap(shade),
                            ls=PRECISION_STYLES.get(precision, ":"),
                            label=f"{backend} {precision} N={n}")
        ax2.set_xscale("log")
        ax2.set_yscale("log")
        ax2.set_xticks(batches)
        ax2.set_xticklabels([str(b) for b in batches])
        ax2.xaxis.set_minor_formatter(NullFormatter())
        log_axis_labels(ax2.yaxis, rate_label)
        ax2.set_xlabel("batch B (frames per call)")
        ax2.set_ylabel("PSFs per second (median; bars: slowest and fastest repeat)")
        ax2.set_title("throughput against batch size, one line per N", fontsize=10)
        ax2.grid(True, which="both", alpha=0.25)
        # outside the axes: with one line per N the legend would hide the data
        ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                   ncol=2 if len(keys) * len(all_n) > 16 else 1)

    suptitle = f"psfsim sweep: {os.path.basename(args.file)}"
    extra = [info[k] for k in ("device", "psfsim_version", "created_utc") if k in info]
    if extra:
        suptitle += " (" + ", ".join(extra) + ")"
    fit_titles(fig, fig.suptitle(suptitle, fontsize=11))
    out = args.output or os.path.splitext(args.file)[0] + ".png"
    try:
        fig.savefig(out, dpi=args.dpi)
    except (OSError, ValueError) as e:
        fail(f"{out}: cannot write the image ({e})")
    print(f"{PROG}: wrote {out} ({len(rows)} rows, backends {', '.join(backends)}, "
          f"batches {', '.join(map(str, batches))})")


if __name__ == "__main__":
    main()
