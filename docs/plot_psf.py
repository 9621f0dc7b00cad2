#!/usr/bin/env python3
"""Plot PSF frames from a psfsim HDF5 file: each frame on a log10 scale with axes in lambda/D,
its phase terms in the title, and its azimuthally averaged radial profile beside it. A photon
run's frames (--photons) are drawn in photo-electrons.

  /usr/bin/python3 docs/plot_psf.py out.h5                  # up to 4 frames -> out.png
  /usr/bin/python3 docs/plot_psf.py out.h5 --frame 0 -o psf0.png
  /usr/bin/python3 docs/plot_psf.py through_focus.h5 --frames 9 --extent 20
"""
import argparse
import os
import re
import sys

from plot_common import PROG, fail, fit_titles, open_dataset_file, text  # beside this script

import h5py  # noqa: E402  (plot_common has checked that these import)
import numpy as np  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

FLOOR = 1e-8  # log-scale floor relative to the maximum: the Airy rings stay visible to ~1e-7


def parse_args():
    p = argparse.ArgumentParser(
        description="Plot frames of /psf from a psfsim HDF5 file on a log10 scale (floor at "
                    f"{FLOOR:g} of the maximum), axes in lambda/D, with each frame's radial "
                    "profile.",
        epilog="Example: /usr/bin/python3 docs/plot_psf.py focus.h5 --frames 9 -o focus.png")
    p.add_argument("file", metavar="FILE.h5", help="HDF5 file written by psfsim run")
    p.add_argument("-o", "--output", metavar="OUT.png",
                   help="image to write (default: FILE with the extension .png); the format "
                        "follows the extension (png, pdf, svg)")
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--frame", type=int, action="append", metavar="I",
                     help="plot frame I (0-based; negative counts from the end); repeatable")
    sel.add_argument("--frames", type=int, metavar="N",
                     help="plot N frames evenly spaced over the batch, first and last included "
                          "(default: all frames, at most 4)")
    p.add_argument("--extent", type=float, metavar="R",
                   help="show only |x|, |y|, radius <= R lambda/D (default: the whole frame)")
    p.add_argument("--dpi", type=int, default=110, help="resolution of raster output (default 110)")
    return p.parse_args()


def term_key(name):
    """psfsim's order of terms, as in the FITS table: Seidel terms by (l, m), then Zernike
    terms by Noll index, then anything else."""
    m = re.fullmatch(r"S(\d+)_(\d+)", name)
    if m:
        return (0, int(m.group(1)), int(m.group(2)), name)
    m = re.fullmatch(r"Z(\d+)", name)
    if m:
        return (1, int(m.group(1)), 0, name)
    return (2, 0, 0, name)


def read_parameters(f, frames):
    """{term: values} for the frames, in a stable, readable order; empty for a clear pupil."""
    if "parameters" not in f or not isinstance(f["parameters"], h5py.Group):
        return {}
    group = f["parameters"]
    out = {}
    for name in sorted(group.keys(), key=term_key):
        values = np.atleast_1d(group[name][()])
        out[name] = [values[i] if i < len(values) else np.nan for i in frames]
    return out


def radial_profile(frame, centre):
    """Mean intensity in 1-pixel-wide annuli around the centre pixel, out to the largest
    radius whose circle fits in the frame (beyond it the annuli are incomplete)."""
    k_rows, k_cols = frame.shape
    y, x = np.indices(frame.shape)
    r = np.hypot(y - centre[0], x - centre[1])
    ring = np.rint(r).astype(np.int64)
    sums = np.bincount(ring.ravel(), weights=frame.ravel().astype(np.float64))
    counts = np.bincount(ring.ravel())
    r_max = min(centre[0], centre[1], k_rows - 1 - centre[0], k_cols - 1 - centre[1])
    r_max = max(r_max, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        profile = sums[:r_max + 1] / counts[:r_max + 1]
    return np.arange(r_max + 1), profile


def main():
    args = parse_args()
    if args.extent is not None and not args.extent > 0:
        fail(f"--extent {args.extent}: must be a positive number of lambda/D")
    f = open_dataset_file(args.file, "psf", "a psfsim sweep file holds timings only; plot it "
                          "with docs/plot_sweep.py")
    with f:
        dset = f["psf"]
        if dset.ndim == 2:  # tolerate a single frame stored without the batch axis
            count, read = 1, (lambda i: dset[()])
        elif dset.ndim == 3:
            count, read = dset.shape[0], (lambda i: dset[i])
        else:
            fail(f"{args.file}: /psf has shape {dset.shape}, expected (B, K, K)")
        if count == 0:
            fail(f"{args.file}: /psf holds no frames")

        if args.frame:
            frames = []
            for i in args.frame:
                if not -count <= i < count:
                    fail(f"--frame {i}: the file holds {count} frame(s), 0..{count - 1}")
                frames.append(i % count)
        else:
            n = args.frames if args.frames is not None else min(count, 4)
            if n < 1:
                fail(f"--frames {n}: must be at least 1")
            n = min(n, count)
            # np.linspace keeps the first and last frames: the ends of a through-focus series
            frames = sorted(set(np.linspace(0, count - 1, n).round().astype(int).tolist()))

        attrs = dset.attrs
        scale = float(attrs.get("pixel_scale_lambda_over_d", np.nan))
        if not np.isfinite(scale) or scale <= 0:
            print(f"{PROG}: warning: /psf has no pixel_scale_lambda_over_d; axes in pixels",
                  file=sys.stderr)
            scale, unit = 1.0, "pixels"
        else:
            unit = r"$\lambda/D$"
        normalization = text(attrs.get("normalization", "?"))
        # A photon run's frames are counts, whatever normalization an older file records.
        photons = text(attrs.get("units", "")) == "photo-electrons"
        data = [np.asarray(read(i), dtype=np.float64) for i in frames]
        params = read_parameters(f, frames)
        header = ", ".join(
            f"{key} {text(attrs[key])}" for key in ("samples", "padded_size", "precision",
                                                      "backend")
            if key in attrs)
        if photons:
            header += f", {float(attrs.get('photons', np.nan)):g} photo-electrons"
            for key, name in (("background", "background"), ("read_noise", "read noise")):
                if float(attrs.get(key, 0)) > 0:
                    header += f", {name} {float(attrs[key]):g} e-"
        else:
            header += f", normalization {normalization}"

    # One colour scale for all rows, so that frames of a series compare directly
    vmax = max(float(np.max(d)) for d in data)
    if not np.isfinite(vmax) or vmax <= 0:
        fail(f"{args.file}: the selected frames hold no positive intensity (max {vmax})")
    floor = vmax * FLOOR
    log_lo, log_hi = np.log10(floor), np.log10(vmax)

    rows = len(frames)
    fig, axes = plt.subplots(rows, 2, figsize=(10.5, 4.3 * rows + 0.4), squeeze=False,
                             gridspec_kw={"width_ratios": [1.15, 1]}, layout="constrained")
    for row, (i, frame) in enumerate(zip(frames, data)):
        k_rows, k_cols = frame.shape
        centre = (k_rows // 2, k_cols // 2)  # the optical axis of a (cropped) frame
        # Pixel centres at (index - K//2) * scale; the extent spans the pixel edges.
        extent = [(-centre[1] - 0.5) * scale, (k_cols - 1 - centre[1] + 0.5) * scale,
                  (-centre[0] - 0.5) * scale, (k_rows - 1 - centre[0] + 0.5) * scale]
        ax_img, ax_prof = axes[row]
        # default (antialiased) interpolation: a frame larger than the axes is averaged, not
        # decimated into moire; a small crop is still drawn as crisp pixels
        img = ax_img.imshow(np.log10(np.maximum(frame, floor)), origin="lower", extent=extent,
                            cmap="inferno", vmin=log_lo, vmax=log_hi)
        if args.extent:
            ax_img.set_xlim(-args.extent, args.extent)
            ax_img.set_ylim(-args.extent, args.extent)
        cbar = fig.colorbar(img, ax=ax_img, fraction=0.046, pad=0.02)
        cbar.set_label("log10 photo-electrons per pixel" if photons
                       else f"log10 intensity (normalization {normalization})")
        ax_img.set_xlabel(f"x [{unit}]")
        ax_img.set_ylabel(f"y [{unit}]")
        terms = " ".join(f"{name}={values[row]:g}" for name, values in params.items())
        ax_img.set_title(f"frame {i}: {terms or 'no aberration'}", fontsize=10)

        radius, profile = radial_profile(frame, centre)
        ax_prof.semilogy(radius * scale, np.maximum(profile, floor), lw=1.2)
        ax_prof.set_ylim(floor, vmax * 2)
        r_shown = radius[-1] * scale
        ax_prof.set_xlim(0, min(r_shown, args.extent) if args.extent else r_shown)
        ax_prof.set_xlabel(f"radius [{unit}]")
        ax_prof.set_ylabel("azimuthal mean [e-/pixel]" if photons
                           else "azimuthal mean intensity")
        ax_prof.grid(True, which="major", alpha=0.3)
        if photons:
            peak = f"brightest pixel {frame.max():.4g} e-"
        else:
            peak = f"peak {frame.max():.4g}" + (" (Strehl)" if normalization == "peak" else "")
        ax_prof.set_title(f"frame {i}: radial profile, {peak}", fontsize=10)

    title = fig.suptitle(f"{os.path.basename(args.file)}: {header}", fontsize=11)
    fit_titles(fig, title)
    out = args.output or os.path.splitext(args.file)[0] + ".png"
    try:
        fig.savefig(out, dpi=args.dpi)
    except (OSError, ValueError) as e:
        fail(f"{out}: cannot write the image ({e})")
    print(f"{PROG}: wrote {out} ({rows} frame{'s' if rows > 1 else ''}: "
          f"{', '.join(map(str, frames))})")


if __name__ == "__main__":
    main()
