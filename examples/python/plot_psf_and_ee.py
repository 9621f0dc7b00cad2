#!/usr/bin/env python3
"""Notebook-style: write a through-focus batch with its encircled energy, open the file as an
xarray Dataset, and plot the best-focus PSF (log scale, lambda/D axes) beside each frame's
encircled-energy curve.

  PYTHONPATH=build/python /usr/bin/python3 examples/python/plot_psf_and_ee.py [-o psf_ee.png]
"""
import argparse
import os
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import psfsim  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="psf_ee.png", help="the figure (PNG)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = psfsim.run(output=os.path.join(folder, "focus.h5"), samples=128, crop=64,
                          obscuration=0.3, spiders="4,0.01", vary="Z4,0,0.6,4",
                          metrics="strehl,ee", ee_radii=np.linspace(0.25, 5, 20))
        ds = psfsim.open(path)

    best = int(ds["strehl"].argmax())
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    psf = ds["psf"].isel(frame=best)
    x, y = ds["x"].values, ds["y"].values
    image = left.imshow(np.log10(np.maximum(psf.values, 1e-7)), origin="lower",
                        extent=[x[0], x[-1], y[0], y[-1]], cmap="magma")
    left.set_xlabel("x [lambda/D]")
    left.set_ylabel("y [lambda/D]")
    left.set_title(f"frame {best}: Z4 = {float(ds['Z4'][best]):+.2f} waves, "
                   f"Strehl {float(ds['strehl'][best]):.3f}")
    fig.colorbar(image, ax=left, label="log10 I / peak")
    for f in range(ds.sizes["frame"]):
        right.plot(ds["ee_radius"], ds["ee"].isel(frame=f), label=f"Z4 = {float(ds['Z4'][f]):+.2f}")
    right.set_xlabel("radius [lambda/D]")
    right.set_ylabel("encircled energy")
    right.legend()
    right.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
