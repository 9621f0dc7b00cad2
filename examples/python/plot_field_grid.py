#!/usr/bin/env python3
"""Notebook-style: run the 9 x 9 field grid of configs/field-coma-9x9.toml (coma growing
linearly with field, a little astigmatism), open the file as an xarray Dataset, and plot
every PSF (log scale) at its field point beside a map of the Strehl ratio over the field.

  PYTHONPATH=build/python /usr/bin/python3 examples/python/plot_field_grid.py [-o field_grid.png]
"""
import argparse
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import psfsim  # noqa: E402

CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs",
                      "field-coma-9x9.toml")
HALF_WIDTH = 2.5  # lambda/D: each tile shows the PSF within this of the optical axis
FLOOR = 1e-3  # of the on-axis peak: the bottom of the log scale


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="field_grid.png", help="the figure (PNG)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = psfsim.run(output=os.path.join(folder, "field.h5"), config=CONFIG)
        ds = psfsim.open(path)

    # (field_y, field_x, y, x) and (field_y, field_x): rows of the grid are field y.
    grid = ds.set_index(frame=["field_y", "field_x"]).unstack("frame")
    field_x, field_y = grid["field_x"].values, grid["field_y"].values
    x, y = ds["x"].values, ds["y"].values
    near = (np.abs(x) <= HALF_WIDTH, np.abs(y) <= HALF_WIDTH)
    step = min(np.diff(field_x).min(), np.diff(field_y).min())
    half = 0.46 * step  # a tile's half-width in units of the field radius

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.6))
    for fy in field_y:
        for fx in field_x:
            psf = grid["psf"].sel(field_x=fx, field_y=fy).values[np.ix_(near[1], near[0])]
            image = left.imshow(np.log10(np.maximum(psf, FLOOR)), origin="lower",
                                extent=[fx - half, fx + half, fy - half, fy + half],
                                cmap="magma", vmin=np.log10(FLOOR), vmax=0,
                                interpolation="nearest")
    left.set_xlim(field_x[0] - step / 2, field_x[-1] + step / 2)
    left.set_ylim(field_y[0] - step / 2, field_y[-1] + step / 2)
    for axes in (left, right):
        axes.set_xticks(np.linspace(-1, 1, 5) * field_x.max())
        axes.set_yticks(np.linspace(-1, 1, 5) * field_y.max())
    left.set_aspect("equal")
    left.set_xlabel("field x [field radius]")
    left.set_ylabel("field y [field radius]")
    left.set_title(f"PSF at each field point (+-{HALF_WIDTH:g} lambda/D each)")
    fig.colorbar(image, ax=left, shrink=0.85,
                 label="log10 I / peak of the aberration-free PSF")

    strehl = grid["strehl"]
    x_edges = np.append(field_x - step / 2, field_x[-1] + step / 2)
    y_edges = np.append(field_y - step / 2, field_y[-1] + step / 2)
    mesh = right.pcolormesh(x_edges, y_edges, strehl.values, cmap="viridis", shading="flat")
    for fy in field_y:
        for fx in field_x:
            value = float(strehl.sel(field_x=fx, field_y=fy))
            right.text(fx, fy, f"{value:.2f}", ha="center", va="center", fontsize=6.5,
                       color="white" if value < 0.92 else "black")
    right.set_aspect("equal")
    right.set_xlabel("field x [field radius]")
    right.set_ylabel("field y [field radius]")
    right.set_title("Strehl ratio over the field")
    fig.colorbar(mesh, ax=right, shrink=0.85, label="Strehl ratio")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)

    centre = float(strehl.sel(field_x=0.0, field_y=0.0, method="nearest"))
    corner = min(float(strehl.sel(field_x=cx, field_y=cy))
                 for cx in field_x[[0, -1]] for cy in field_y[[0, -1]])
    print(f"strehl from {corner:.3f} (corner) to {centre:.3f} (centre)")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
