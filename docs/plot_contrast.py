#!/usr/bin/env python3
"""Plot the contrast curves of psfsim HDF5 files written with --metrics contrast
(docs/coronagraphy.md): /metrics/contrast_mean and contrast_std against the separation in
lambda/D, log y. One frame is drawn as its curve with the azimuthal spread as a band; a batch
(a Monte Carlo) as the median over the frames with the 10th-90th percentile band. Each file is
one curve, labelled by its optical train.

  /usr/bin/python3 docs/plot_contrast.py vortex.h5                     # -> vortex-contrast.png
  /usr/bin/python3 docs/plot_contrast.py lyot-mc.h5 vortex.h5 -o both.png
"""
import argparse
import os

from plot_common import PROG, fail, fit_titles, open_dataset_file, text  # beside this script

import h5py  # noqa: E402  (plot_common has checked that these import)
import numpy as np  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", help="psfsim HDF5 files with /metrics/contrast_mean")
    p.add_argument("-o", "--output", help="image file (default: FIRST-contrast.png)")
    return p.parse_args()


def curve(path):
    with open_dataset_file(path, "metrics", "run psfsim with --metrics contrast",
                           kind=h5py.Group) as f:
        if "contrast_mean" not in f["metrics"]:
            fail(f"{path}: no /metrics/contrast_mean (run psfsim with --metrics contrast)")
        mean = f["metrics/contrast_mean"]
        radii = np.asarray(mean.attrs["radii_lambda_over_d"], dtype=float)
        mean = np.asarray(mean[()], dtype=float)
        std = np.asarray(f["metrics/contrast_std"][()], dtype=float)
        label = os.path.basename(path)
        for holder in ("psf", "metrics"):
            if holder in f and "optical_train" in f[holder].attrs:
                label += ": " + text(f[holder].attrs["optical_train"]).replace("\n", ", ")
                break
    return radii, mean, std, label


def main():
    args = parse_args()
    out = args.output or os.path.splitext(args.files[0])[0] + "-contrast.png"
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for path in args.files:
        radii, mean, std, label = curve(path)
        if mean.shape[0] == 1:
            m, s = mean[0], std[0]
            line, = ax.semilogy(radii, m, marker="o", label=label + " (azimuthal mean)")
            ax.fill_between(radii, np.maximum(m - s, m * 1e-3), m + s, color=line.get_color(),
                            alpha=0.2)
        else:
            med = np.nanmedian(mean, axis=0)
            lo, hi = np.nanpercentile(mean, [10, 90], axis=0)
            line, = ax.semilogy(radii, med, marker="o",
                                label=f"{label} (median of {mean.shape[0]} frames)")
            ax.fill_between(radii, lo, hi, color=line.get_color(), alpha=0.2)
    ax.set_xlabel("separation (λ/D)")
    ax.set_ylabel("raw contrast")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("contrast curves")
    fit_titles(fig)
    fig.savefig(out, dpi=120, bbox_inches="tight")
    print(out)


if __name__ == "__main__":
    main()
