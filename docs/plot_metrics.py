#!/usr/bin/env python3
"""Plot the per-frame metrics of a psfsim HDF5 file (/metrics, written by psfsim run --metrics).
A run that steps one term (--vary, or a --frames CSV that changes one term) gets each scalar
metric against that term, and its encircled-energy and MTF curves one per frame, coloured by
the term. Any other run (a --random Monte Carlo) gets one histogram per scalar metric and the
curves' mean and spread over the frames. The aberration-free clear circular pupil's curves are
drawn beside them.

  /usr/bin/python3 docs/plot_metrics.py mc.h5                 # -> mc-metrics.png
  /usr/bin/python3 docs/plot_metrics.py mc.h5 --bins 80 -o mc.svg
  /usr/bin/python3 docs/plot_metrics.py elt.h5                # --vary: metrics against Z4
"""
import argparse
import os
import re
import warnings

from plot_common import PROG, fail, fit_titles, open_dataset_file, text  # beside this script

import h5py  # noqa: E402  (plot_common has checked that these import)
import numpy as np  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.cm import ScalarMappable  # noqa: E402
from matplotlib.colors import Normalize  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

# Scalar metrics in the order psfsim writes them; any other 1-D dataset follows, by name.
SCALARS = ["strehl", "strehl_centre", "centroid_x", "centroid_y", "fwhm", "rms_wavefront"]
LABELS = {
    "strehl": "Strehl ratio (maximum)",
    "strehl_centre": "Strehl ratio (on axis)",
    "centroid_x": "centroid x",
    "centroid_y": "centroid y",
    "fwhm": "FWHM",
    "rms_wavefront": "RMS wavefront",
}


def parse_args():
    p = argparse.ArgumentParser(
        description="Plot /metrics of a psfsim HDF5 file (psfsim run --metrics ...). A run that "
                    "steps one phase term (--vary, or a --frames CSV in which one term "
                    "changes) gets each scalar metric (strehl, strehl_centre, centroid_x, "
                    "centroid_y, fwhm, rms_wavefront) against that term, and the curves of ee "
                    "against radius and mtf against frequency one per frame, coloured by the "
                    "term. Other runs (--random) get a histogram of each scalar metric over "
                    "the frames (mean, standard deviation and median in the title) and the "
                    "curves' mean over the frames, a band of one standard deviation and the "
                    "5th to 95th percentiles. The clear circular pupil's Airy values are "
                    "dotted for comparison. NaN values (a FWHM whose profile never halves) are "
                    "counted and left out.",
        epilog="Example: psfsim run -c configs/tolerance-monte-carlo.toml -o mc.h5 && "
               "/usr/bin/python3 docs/plot_metrics.py mc.h5")
    p.add_argument("file", metavar="FILE.h5", help="HDF5 file written by psfsim run --metrics")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="image to write (default: FILE-metrics.png beside FILE); the format "
                        "follows the extension (png, pdf, svg)")
    p.add_argument("--bins", type=int, default=40, metavar="N",
                   help="histogram bins per scalar metric (default 40)")
    p.add_argument("--histograms", action="store_true",
                   help="histograms and mean curves even for a run that steps one term")
    p.add_argument("--no-reference", action="store_true",
                   help="leave out the clear circular pupil's EE and MTF curves")
    p.add_argument("--dpi", type=int, default=110, help="resolution of raster output (default 110)")
    return p.parse_args()


def bessel(n, x):
    """J_n(x) from Bessel's integral (1/pi) int_0^pi cos(n t - x sin t) dt: the trapezoidal rule
    on this smooth periodic integrand converges geometrically (1e-15 at x <= 60 with 400
    points), so no SciPy is needed."""
    t = np.linspace(0.0, np.pi, 401)
    values = np.cos(n * t[None, :] - np.asarray(x, dtype=float)[:, None] * np.sin(t)[None, :])
    weights = np.full(t.size, t[1] - t[0])
    weights[[0, -1]] *= 0.5
    return values @ weights / np.pi


def airy_ee(radius):
    """Encircled energy of the clear circular pupil's Airy pattern, radius in lambda/D."""
    x = np.pi * np.asarray(radius, dtype=float)
    return 1.0 - bessel(0, x) ** 2 - bessel(1, x) ** 2


def circular_mtf(nu):
    """MTF of the clear circular pupil, nu in units of the cutoff D/lambda."""
    nu = np.clip(np.asarray(nu, dtype=float), 0.0, 1.0)
    return 2.0 / np.pi * (np.arccos(nu) - nu * np.sqrt(1.0 - nu * nu))


def open_metrics(path):
    """The open file and its /metrics group, after checking that they exist."""
    f = open_dataset_file(path, "metrics", "run psfsim with --metrics LIST and --store both or "
                          "metrics; a sweep file holds timings only", kind=h5py.Group)
    group = f["metrics"]
    if not any(isinstance(group[k], h5py.Dataset) for k in group):
        f.close()
        fail(f"{path}: /metrics holds no datasets")
    return f, group


def units_of(dataset):
    units = text(dataset.attrs.get("units", ""))
    if units in ("", "1"):
        return ""
    return r"$\lambda/D$" if units == "lambda/D" else units


def summary(values):
    finite = values[np.isfinite(values)]
    nans = values.size - finite.size
    if finite.size == 0:
        return finite, f"all {values.size} NaN"
    s = (f"mean {finite.mean():.4g}, sd {finite.std():.2g}, median {np.median(finite):.4g}")
    if nans:
        s += f", {nans} NaN"
    return finite, s


def plot_histogram(ax, name, values, units, bins):
    finite, title = summary(values)
    label = LABELS.get(name, name)
    if finite.size:
        lo, hi = finite.min(), finite.max()
        if lo == hi:  # one value (or one frame): one bar centred on it, one tick naming it
            pad = abs(lo) * 1e-3 or 1e-3
            ax.hist(finite, bins=1, range=(lo - pad, hi + pad), color="tab:blue", alpha=0.8)
            ax.set_xlim(lo - 3 * pad, hi + 3 * pad)
            ax.set_xticks([lo], [f"{lo:.7g}"])
        else:
            ax.hist(finite, bins=bins, range=(lo, hi), color="tab:blue", alpha=0.8)
            ax.xaxis.set_major_locator(MaxNLocator(5))
            ax.axvline(np.median(finite), color="k", lw=1, ls="--", label="median")
    else:
        ax.text(0.5, 0.5, "no finite value", transform=ax.transAxes, ha="center")
    ax.set_xlabel(f"{label} [{units}]" if units else label)
    ax.set_ylabel("frames")
    ax.set_title(f"{name}: {title}", fontsize=9)
    ax.grid(True, alpha=0.3)


def plot_curve(ax, x, rows, reference, reference_label, xlabel, ylabel, title):
    """Mean over the frames with bands of one standard deviation and the 5-95th percentiles."""
    rows = np.asarray(rows, dtype=float)
    order = np.argsort(x)
    x, rows = np.asarray(x, dtype=float)[order], rows[:, order]
    with warnings.catch_warnings():  # a column of NaN only gives NaN, as it should
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(rows, axis=0)
        sd = np.nanstd(rows, axis=0)
        lo, hi = np.nanpercentile(rows, [5, 95], axis=0)
    if rows.shape[0] > 1:
        ax.fill_between(x, lo, hi, color="tab:blue", alpha=0.15, lw=0,
                        label="5th-95th percentile")
        ax.fill_between(x, mean - sd, mean + sd, color="tab:blue", alpha=0.3, lw=0,
                        label=r"mean $\pm$ 1 sd")
    ax.plot(x, mean, "o-", color="tab:blue", ms=3, lw=1.5,
            label=f"mean of {rows.shape[0]} frame{'s' if rows.shape[0] > 1 else ''}")
    if reference is not None:
        ax.plot(reference[0], reference[1], ":", color="k", lw=1.2, label=reference_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.set_ylim(0, 1.05)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right" if "EE" in ylabel else "upper right")


def frame_source(f):
    """How the run made its frames, from the root `config` (the effective configuration as
    TOML): "vary", "random", "frames" (a CSV) or "" (one set of terms)."""
    config = text(f.attrs.get("config", ""))
    try:
        import tomllib  # Python 3.11
        keys = set(tomllib.loads(config).get("run", {}))
    except (ImportError, ValueError):
        keys = set(re.findall(r"^\s*([A-Za-z][\w-]*)\s*=", config, re.MULTILINE))
    return next((k for k in ("vary", "random", "frames") if k in keys), "")


def stepped_term(f, frames):
    """(name, values, units) of the one /parameters dataset whose value changes from frame to
    frame; None when none or several do."""
    group = f.get("parameters")
    if not isinstance(group, h5py.Group):
        return None
    changing = []
    for name in group:
        d = group[name]
        if isinstance(d, h5py.Dataset) and d.shape == (frames,):
            values = np.asarray(d[()], dtype=float)
            if np.ptp(values) > 0:
                changing.append((name, values, text(d.attrs.get("units", ""))))
    return changing[0] if len(changing) == 1 else None


def plot_against(ax, name, values, units, term):
    """A scalar metric against the stepped term, one point per frame."""
    label = LABELS.get(name, name)
    x, x_label = term
    order = np.argsort(x, kind="stable")
    ax.plot(x[order], values[order], "o-", color="tab:blue", ms=3, lw=1.2)
    nans = int(np.count_nonzero(~np.isfinite(values)))
    ax.set_xlabel(x_label)
    ax.set_ylabel(f"{label} [{units}]" if units else label)
    ax.set_title(f"{name} against {x_label.split(' ')[0]}" + (f", {nans} NaN" if nans else ""),
                 fontsize=9)
    ax.grid(True, alpha=0.3)


def plot_curves_by_term(fig, ax, x, rows, term, reference, reference_label, xlabel, ylabel,
                        title):
    """One curve per frame (at most 50, evenly chosen), coloured by the stepped term."""
    values, term_label = term
    order = np.argsort(x)
    x, rows = np.asarray(x, dtype=float)[order], np.asarray(rows, dtype=float)[:, order]
    shown = np.unique(np.linspace(0, rows.shape[0] - 1, min(rows.shape[0], 50)).round()
                      .astype(int))
    colours = ScalarMappable(Normalize(values.min(), values.max()), "viridis")
    for i in shown:
        ax.plot(x, rows[i], "-", color=colours.to_rgba(values[i]), lw=1.2)
    if reference is not None:
        ax.plot(reference[0], reference[1], ":", color="k", lw=1.2, label=reference_label)
        ax.legend(fontsize=8, loc="lower right" if "EE" in ylabel else "upper right")
    fig.colorbar(colours, ax=ax, label=term_label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.set_ylim(0, 1.05)
    ax.grid(True, alpha=0.3)


def main():
    args = parse_args()
    if args.bins < 1:
        fail(f"--bins {args.bins}: must be at least 1")
    f, group = open_metrics(args.file)
    with f:
        names = [k for k in group if isinstance(group[k], h5py.Dataset)]
        scalars = [k for k in SCALARS if k in names]
        scalars += sorted(k for k in names if k not in SCALARS and group[k].ndim == 1)
        data = {}
        for k in scalars:
            values = np.asarray(group[k][()], dtype=float)
            if values.ndim != 1:
                fail(f"{args.file}: /metrics/{k} has shape {values.shape}, expected (frames,)")
            data[k] = (values, units_of(group[k]))
        curves = {}
        for k, axis_attr in (("ee", "radii_lambda_over_d"), ("mtf", "frequencies_cutoff")):
            if k not in names:
                continue
            rows = np.asarray(group[k][()], dtype=float)
            if rows.ndim != 2 or axis_attr not in group[k].attrs:
                fail(f"{args.file}: /metrics/{k} is not a (frames, values) dataset with its "
                     f"{axis_attr} attribute")
            x = np.asarray(group[k].attrs[axis_attr], dtype=float).ravel()
            if x.size != rows.shape[1]:
                fail(f"{args.file}: /metrics/{k} has {rows.shape[1]} columns but {axis_attr} "
                     f"holds {x.size} values")
            curves[k] = (x, rows)
        attrs = group.attrs
        frames = int(attrs.get("frames", next(iter(data.values()))[0].size if data else
                               next(iter(curves.values()))[1].shape[0]))
        header = ", ".join(
            f"{key} {text(attrs[key])}" for key in ("samples", "padded_size", "propagation",
                                                     "precision", "backend")
            if key in attrs)
        scale = attrs.get("pixel_scale_lambda_over_d")
        oversample = int(attrs.get("oversample", 1))
        store = text(f.attrs.get("store", "?"))
        source = frame_source(f)
        # A deterministic series of one term: the metrics against it, not their histograms.
        stepped = None
        if source in ("vary", "frames") and not args.histograms:
            stepped = stepped_term(f, frames)

    if frames == 0:
        fail(f"{args.file}: /metrics holds no frames")
    term = None
    if stepped is not None:
        name, values, units = stepped
        term = (values, f"{name} [{units}]" if units else name)
    panels = len(data) + len(curves)
    columns = 2 if panels == 4 else min(3, panels)
    rows_n = -(-panels // columns)
    fig, axes = plt.subplots(rows_n, columns, figsize=(4.6 * columns, 3.6 * rows_n + 0.5),
                             squeeze=False, layout="constrained")
    flat = axes.ravel()
    for ax, (name, (values, units)) in zip(flat, data.items()):
        if term is not None:
            plot_against(ax, name, values, units, term)
        else:
            plot_histogram(ax, name, values, units, args.bins)
    used = len(data)
    for k in ("ee", "mtf"):
        if k not in curves:
            continue
        x, rows = curves[k]
        ref = None
        if k == "ee":
            if not args.no_reference:
                r = np.linspace(0.0, max(float(x.max()), 0.5) * 1.02, 300)
                ref = (r, airy_ee(r))
            labels = ("clear circular pupil (Airy)", r"radius [$\lambda/D$]",
                      "encircled energy (EE)", "ee: energy within radius, of the whole focal "
                      "plane")
        else:
            if not args.no_reference:
                nu = np.linspace(0.0, 1.0, 300)
                ref = (nu, circular_mtf(nu))
            labels = ("clear circular pupil", r"spatial frequency [cutoff $D/\lambda$]", "MTF",
                      "mtf: radially averaged")
        if term is not None:
            plot_curves_by_term(fig, flat[used], x, rows, term, ref, *labels)
        else:
            plot_curve(flat[used], x, rows, ref, *labels)
        used += 1
    for ax in flat[used:]:
        ax.set_visible(False)

    pixels = ""
    if scale is not None:
        sub = float(scale) / oversample
        pixels = f", metrics on {sub:.4g} " + r"$\lambda/D$" + " pixels"
    what = f"{frames} frame{'s' if frames != 1 else ''}"
    if term is not None:
        values, label = term
        what += f", {label.split(' ')[0]} from {values.min():g} to {values.max():g}"
    if source:
        what += f" (--{source})"
    title = fig.suptitle(f"{os.path.basename(args.file)}: {what}, store {store}, {header}"
                         f"{pixels}", fontsize=10)
    fit_titles(fig, title)
    out = args.output or os.path.splitext(args.file)[0] + "-metrics.png"
    try:
        fig.savefig(out, dpi=args.dpi)
    except (OSError, ValueError) as e:
        fail(f"{out}: cannot write the image ({e})")
    shown = list(data) + list(curves)
    kind = f"against {stepped[0]}" if term is not None else "histograms"
    print(f"{PROG}: wrote {out} ({frames} frame{'s' if frames != 1 else ''}, {kind}: "
          f"{', '.join(shown)})")


if __name__ == "__main__":
    main()
