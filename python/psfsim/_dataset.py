"""psfsim.open: a psfsim HDF5 file as an xarray.Dataset (docs/output.md's layout)."""
from __future__ import annotations

import os
from typing import Any


def _text(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "tolist") and getattr(value, "shape", None) == ():
        return value.item()
    return value


def _attrs(node: Any) -> dict[str, Any]:
    out = {}
    for k, v in node.attrs.items():
        if k in ("DIMENSION_LIST", "REFERENCE_LIST", "CLASS", "NAME"):
            continue  # the dimension scales, which the Dataset's coordinates replace
        out[k] = _text(v)
    return out


def open(path: str | os.PathLike[str]):  # noqa: A001 - psfsim.open, as the docs name it
    """Read a psfsim file into an ``xarray.Dataset``.

    Variables: ``psf`` (frame, y, x) with the run's attributes; one variable per phase term
    of ``/parameters`` (``Z4``, ``S2_1``: (frame,), waves or the run's units); each metric of
    ``/metrics`` (``strehl``, ``fwhm``, ... (frame,); ``ee`` (frame, ee_radius) and ``mtf``
    (frame, mtf_frequency)); the spectrum (``wavelength_m``, ``weight`` along
    ``wavelength``); and ``timings_<stage>`` in seconds. Coordinates: ``frame``, ``y`` and
    ``x`` in lambda/D from the optical axis, ``y_arcsec``/``x_arcsec`` and ``y_um``/``x_um``
    where the run has them, ``ee_radius`` (lambda/D) and ``mtf_frequency`` (of D/lambda);
    for a run in the field, ``field_x``/``field_y`` (frame,) in units of the field radius,
    and ``field_x_arcsec``/``field_y_arcsec`` with ``field_radius``. A field grid unstacks
    into (field_y, field_x, y, x) with
    ``ds.set_index(frame=["field_y", "field_x"]).unstack("frame")``.
    The root attributes (``config``, ``command_line``, ``psfsim_version``, ...) are the
    Dataset's. The arrays are read into memory.

    Raises psfsim.InputError when the file is not a psfsim file, psfsim.RuntimeFailure when it
    cannot be read, and ImportError when xarray or h5py is missing (Debian python3-xarray,
    python3-h5py).
    """
    import h5py
    import numpy as np
    import xarray as xr

    from . import _psfsim

    path = os.fspath(path)
    try:
        f = h5py.File(path, "r")
    except FileNotFoundError:
        raise _psfsim.InputError(f"{path}: no such file") from None
    except OSError as e:
        raise _psfsim.RuntimeFailure(f"{path}: cannot be read as HDF5 ({e})") from None
    with f:
        if "psfsim_version" not in f.attrs:
            raise _psfsim.InputError(f"{path}: not a psfsim file (no psfsim_version attribute)")
        data: dict[str, Any] = {}
        coords: dict[str, Any] = {}
        frames = None
        if "psf" in f:
            psf = f["psf"]
            frames = psf.shape[0]
            data["psf"] = (("frame", "y", "x"), psf[...], _attrs(psf))
            for name, dim in (("frame", "frame"), ("y", "y"), ("x", "x"), ("y_arcsec", "y"),
                              ("x_arcsec", "x"), ("y_um", "y"), ("x_um", "x")):
                if name in f:
                    coords[name] = ((dim,), f[name][...], _attrs(f[name]))
        if "parameters" in f:
            group = f["parameters"]
            for name, dset in group.items():
                if name in ("field_x", "field_y"):
                    # The frame's place in the field is a coordinate of the frame axis; with
                    # field_radius_arcsec, also in arcsec on the sky.
                    coords[name] = (("frame",), dset[...], _attrs(dset))
                    run = f["psf"] if "psf" in f else f.get("metrics")
                    radius = run.attrs.get("field_radius_arcsec") if run is not None else None
                    if radius is not None:
                        coords[f"{name}_arcsec"] = (("frame",), dset[...] * float(radius),
                                                    {"units": "arcsec"})
                else:
                    data[name] = (("frame",), dset[...], _attrs(dset))
        if "metrics" in f:
            group = f["metrics"]
            for name, dset in group.items():
                attrs = _attrs(dset)
                if name == "ee":
                    coords["ee_radius"] = (("ee_radius",), np.asarray(dset.attrs["radii_lambda_over_d"]),
                                           {"units": "lambda/D"})
                    data[name] = (("frame", "ee_radius"), dset[...], attrs)
                elif name == "mtf":
                    coords["mtf_frequency"] = (("mtf_frequency",),
                                               np.asarray(dset.attrs["frequencies_cutoff"]),
                                               {"units": "D/lambda"})
                    data[name] = (("frame", "mtf_frequency"), dset[...], attrs)
                else:
                    data[name] = (("frame",), dset[...], attrs)
        if "spectrum" in f:
            for name, dset in f["spectrum"].items():
                data[name] = (("wavelength",), dset[...], _attrs(dset))
        if "timings" in f:
            for name, dset in f["timings"].items():
                if isinstance(dset, h5py.Dataset):
                    dim = "repeat" if name not in ("plan", "write") else f"{name}_once"
                    data[f"timings_{name}"] = ((dim,), dset[...], {"units": "s"})
        if "frame" not in coords and frames is None and "metrics" in f:
            frames = int(f["metrics"].attrs.get("frames", 0))
        if "frame" not in coords and frames is not None:
            coords["frame"] = (("frame",), np.arange(frames))
        return xr.Dataset(data_vars=data, coords=coords, attrs=_attrs(f))
