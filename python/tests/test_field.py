"""Runs across the field (docs/field.md), from Python and through the file: the field points'
datasets and scales, psfsim.open's coordinates, and the FITS PSF library that photutils'
GriddedPSFModel is built from, whose evaluation at a node is that node's PSF."""
import math
import os

import numpy as np
import pytest

import psfsim

h5py = pytest.importorskip("h5py")

COMA = dict(backend="cpu", samples=32, crop=24, precision="double", seidel_field=[(1, 3, 1, 0.3)],
            normalize="sum")


@pytest.fixture
def grid_file(tmp_path):
    path = tmp_path / "grid.h5"
    psfsim.run(output=str(path), field_grid=(3, 3), field_radius="2arcmin", wavelength="1um",
               diameter="1m", pixel_scale="0.05arcsec", **COMA)
    return path


def test_field_points_are_parameters_and_scales_of_the_psf_axis(grid_file):
    with h5py.File(grid_file, "r") as f:
        x = f["parameters/field_x"][...]
        y = f["parameters/field_y"][...]
        np.testing.assert_array_equal(x, np.tile([-1.0, 0.0, 1.0], 3))
        np.testing.assert_array_equal(y, np.repeat([-1.0, 0.0, 1.0], 3))
        scales = list(f["psf"].dims[0].keys())
        assert "field_x" in scales and "field_y" in scales
        assert scales[-1] == "frame"  # netCDF readers name the axis after its last scale
        np.testing.assert_array_equal(f["field_x"][...], x)
        assert f["field_x"].attrs["units"] == "field radius"
        assert f["psf"].attrs["field_radius_arcsec"] == pytest.approx(120.0, rel=1e-15)


def test_open_gives_field_coordinates_along_the_frame_axis(grid_file):
    pytest.importorskip("xarray")
    ds = psfsim.open(grid_file)
    assert ds["field_x"].dims == ("frame",)
    np.testing.assert_array_equal(ds["field_y"].values, np.repeat([-1.0, 0.0, 1.0], 3))
    np.testing.assert_allclose(ds["field_x_arcsec"].values, 120.0 * np.tile([-1.0, 0.0, 1.0], 3))
    grid = ds.set_index(frame=["field_y", "field_x"]).unstack("frame")
    assert set(grid["psf"].dims) == {"y", "x", "field_y", "field_x"}
    np.testing.assert_array_equal(grid["psf"].sel(field_x=1.0, field_y=-1.0).values,
                                  ds["psf"].values[2])


def test_grid_frames_equal_single_runs_at_their_points(grid_file):
    with h5py.File(grid_file, "r") as f:
        psf = f["psf"][...]
    # x varies fastest: frame 3 * iy + ix.
    for frame, (x, y) in ((2, (1.0, -1.0)), (4, (0.0, 0.0)), (6, (-1.0, 1.0))):
        single = psfsim.psf(field=(x, y), field_radius="2arcmin", wavelength="1um", diameter="1m",
                            pixel_scale="0.05arcsec", **COMA)
        np.testing.assert_allclose(single, psf[frame], rtol=0, atol=1e-12 * psf[frame].max())


def test_simulator_takes_the_field_per_call():
    sim = psfsim.Simulator(**COMA)
    a = sim(field=(0.5, 0.0))
    b = psfsim.psf(seidel=[(3, 1, 0.15)], **{k: v for k, v in COMA.items() if k != "seidel_field"})
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * b.max())
    batch = sim(field_grid=(2, 1, 0.5))
    assert batch.shape == (2, 24, 24)
    np.testing.assert_allclose(batch[1], a, rtol=0, atol=1e-12 * b.max())


def test_double_zernike_keyword_takes_a_dict_of_index_pairs():
    a = psfsim.psf(backend="cpu", samples=32, precision="double", double_zernike={(2, 4): 0.3},
                   field=(0.5, 0))
    b = psfsim.psf(backend="cpu", samples=32, precision="double", zernike={4: 0.3})
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_fits_library_builds_a_gridded_psf_model_equal_to_its_nodes(grid_file, tmp_path, cli):
    fits = pytest.importorskip("astropy.io.fits")
    nddata = pytest.importorskip("astropy.nddata")
    models = pytest.importorskip("photutils.psf")
    out = tmp_path / "library.fits"
    r = cli("export", str(grid_file), "--fits", str(out))
    assert r.returncode == 0, r.stderr
    with fits.open(out) as hdul:
        header = hdul[0].header
        data = hdul[0].data.astype(float)
    n = header["NUM_PSFS"]
    assert n == 9 and data.shape == (9, 24, 24)
    assert header["FIELDUNI"] == "pixel"
    # stpsf's layout: "(y, x)" per PSF; here detector pixels from the field centre.
    yx = [tuple(float(v) for v in header[f"DET_YX{i}"].strip("()").split(",")) for i in range(n)]
    scale = 120.0 / 0.05
    with h5py.File(grid_file, "r") as f:
        np.testing.assert_allclose([p[1] for p in yx], f["parameters/field_x"][...] * scale)
        np.testing.assert_allclose([p[0] for p in yx], f["parameters/field_y"][...] * scale)
    meta = {"grid_xypos": [(x, y) for y, x in yx], "oversampling": header["OVERSAMP"]}
    model = models.GriddedPSFModel(nddata.NDData(data, meta=meta))
    k = data.shape[1]
    offsets = np.arange(k) - (k - 1) / 2  # the model centres the image on (x_0, y_0)
    for node in (0, 4, 8):
        x0, y0 = meta["grid_xypos"][node]
        yy, xx = np.meshgrid(y0 + offsets, x0 + offsets, indexing="ij")
        evaluated = model.evaluate(xx, yy, 1.0, x0, y0)
        np.testing.assert_allclose(evaluated, data[node], rtol=0, atol=1e-12 * data[node].max())


def test_point_outside_the_table_is_an_input_error(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("field_x,field_y,Z4\n0,0,0.1\n1,0,0.2\n0,1,0.3\n")
    with pytest.raises(psfsim.InputError, match="0.8"):
        psfsim.psf(backend="cpu", samples=32, field_table=str(table), field=(0.8, 0.8))


def test_hdf5_table_equals_its_csv_form(tmp_path):
    xs, ys = np.meshgrid([-1.0, 0.0, 1.0], [-1.0, 0.5, 1.0])
    z4 = 0.1 + 0.05 * xs - 0.02 * ys ** 2
    csv = tmp_path / "t.csv"
    csv.write_text("field_x,field_y,Z4\n" + "".join(
        f"{float(x)!r},{float(y)!r},{float(z)!r}\n"
        for x, y, z in zip(xs.ravel(), ys.ravel(), z4.ravel())))
    h5 = tmp_path / "t.h5"
    with h5py.File(h5, "w") as f:
        f["field_x"] = xs.ravel()
        f["field_y"] = ys.ravel()
        f["Z4"] = z4.ravel()
    common = dict(backend="cpu", samples=32, precision="double", field=(0.3, 0.2))
    np.testing.assert_array_equal(psfsim.psf(field_table=str(csv), **common),
                                  psfsim.psf(field_table=str(h5), **common))
