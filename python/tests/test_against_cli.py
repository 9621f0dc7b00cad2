"""Every option of `psfsim run` is a keyword, and a keyword gives what its option gives: the
same frames, metrics and parameters as the CLI's file, bit for bit (wisdom="none", so that
both plan FFTW alike)."""
import os

import h5py
import numpy as np
import pytest
from conftest import psfsim

BASE = dict(backend="cpu", samples=16, wisdom="none", threads=1)

# One case per keyword (the test below checks that none is missing): keywords beside BASE.
# Files are made in the test's folder: "{tmp}" stands for it.
CASES = {
    "output": {},
    "force": dict(force=True),
    "backend": dict(backend="cpu"),
    "precision": dict(precision="double"),
    "samples": dict(samples=24),
    "pad_factor": dict(pad_factor=2.5),
    "padded_size": dict(padded_size=40),
    "grid": dict(grid="linspace"),
    "seidel": dict(seidel=[(2, 1, 0.5), "4,0,0.25"]),
    "zernike": dict(zernike={4: 0.1, 11: -0.05}),
    "zernike_order": dict(zernike_order="fringe", zernike={4: 0.1}),
    "zernike_norm": dict(zernike_norm="unit", zernike={5: 0.1}),
    "obscuration": dict(obscuration=0.3),
    "normalize": dict(normalize="sum"),
    "threads": dict(threads=2),
    "device": dict(device=0),
    "fft_effort": dict(fft_effort="estimate"),
    "wisdom": dict(wisdom="none"),
    "stage_timing": dict(stage_timing=True),
    "spiders": dict(spiders=(4, 0.05, 45)),
    "hex_segments": dict(hex_segments="1,0.02"),
    "pupil_amplitude": dict(pupil_amplitude="{tmp}/amplitude.npy"),
    "pupil_opd": dict(pupil_opd="{tmp}/opd.npy"),
    "opd_units": dict(pupil_opd="{tmp}/opd.npy", opd_units="nm", wavelength="500nm"),
    "vary": dict(vary=("Z4", -0.5, 0.5, 3)),
    "random": dict(random="4-11,0.1,4,7"),
    "frames": dict(frames="{tmp}/frames.csv"),
    "field": dict(seidel_field=[(1, 3, 1, 0.2)], field=(0.5, -0.25)),
    "field_grid": dict(seidel_field=[(2, 2, 2, 0.1)], field_grid=(2, 3, 0.5)),
    "field_radius": dict(seidel_field="1,3,1,0.2", field_radius="2arcmin",
                         field=("30arcsec", "0arcsec")),
    "seidel_field": dict(seidel_field=[(1, 3, 1, 0.2), "2,2,2,0.1"], field=(0.3, 0.4)),
    "double_zernike": dict(double_zernike={(2, 4): 0.3, (3, 7): 0.1}, field=(0.3, 0.4)),
    "field_table": dict(field_table="{tmp}/field.csv", field=(0.2, 0.1)),
    "crop": dict(crop=8),
    "wavelength": dict(wavelength="2um"),
    "fnumber": dict(wavelength="1um", fnumber=20, pixel_pitch="10um", crop=16),
    "pixel_pitch": dict(wavelength="1um", fnumber=20, pixel_pitch="8um", crop=16),
    "diameter": dict(wavelength="1um", diameter="2m", pixel_scale="60mas", crop=16),
    "pixel_scale": dict(pixel_scale="0.4lod", crop=16),
    "wavelengths": dict(wavelength="1um", wavelengths="900nm:1,1100nm:2", pixel_scale="0.4lod",
                        crop=16),
    "band": dict(wavelength="1um", band=("900nm", "1100nm", 3), pixel_scale="0.4lod", crop=16),
    "aberration_units": dict(wavelength="500nm", aberration_units="nm", zernike={4: 50}),
    "propagation": dict(propagation="mft", crop=12),
    "oversample": dict(oversample=2, pixel_scale="0.5lod", crop=12),
    "jitter": dict(jitter="0.2lod"),
    "source_offset": dict(source_offset="1lod,-0.5lod"),
    "defocus_distance": dict(defocus_distance="0.5mm", fnumber=20, wavelength="1um"),
    "photons": dict(photons=1e5),
    "background": dict(photons=1e5, background=2),
    "read_noise": dict(photons=1e5, read_noise=3),
    "noise_seed": dict(photons=1e5, noise_seed=12345),
    "metrics": dict(metrics="strehl,fwhm,ee,rms_wavefront", zernike={6: 0.05}),
    "ee_radii": dict(metrics="ee", ee_radii=[0.5, 1, 2.5]),
    "mtf_frequencies": dict(metrics="mtf", mtf_frequencies=[0.1, 0.5]),
    "store": dict(metrics="strehl", store="metrics", vary=("Z4", 0, 1, 3)),
    "repeat": dict(repeat=2),
    "chunk_frames": dict(chunk_frames=2, vary=("Z4", 0, 1, 5)),
    "compression": dict(compression="deflate:1"),
    "quiet": dict(quiet=True),
    "contrast_radii": dict(metrics="contrast,throughput", contrast_radii=[2, 3.5]),
    "coronagraph": dict(coronagraph="vortex:2", samples=32),
    "lyot_stop": dict(coronagraph="lyot:2", lyot_stop=(0.9, 0.2)),
    "lyot_spiders": dict(coronagraph="lyot:2", lyot_stop=0.9, lyot_spiders=(4, 0.02)),
    "mask_sampling": dict(coronagraph="lyot:2", mask_sampling=8),
    "plane": dict(plane=["focal:lyot:2,0.01", "pupil:0.8;3,0.02"]),
}


def make_inputs(folder):
    n = 24 if False else 16
    y, x = np.mgrid[0:n, 0:n]
    np.save(os.path.join(folder, "amplitude.npy"), (0.5 + 0.5 * np.cos(x / 3.0)).astype(np.float64))
    np.save(os.path.join(folder, "opd.npy"), (0.05 * np.sin(y / 2.0)).astype(np.float64))
    with open(os.path.join(folder, "frames.csv"), "w") as f:
        f.write("Z4,Z11,S2_1\n0.1,0,0\n0,0.05,0.2\n-0.1,0.02,0\n")
    with open(os.path.join(folder, "field.csv"), "w") as f:
        f.write("field_x,field_y,Z4,Z8\n-1,0,0.1,0\n1,0,0.3,0.02\n0,1,-0.2,0.01\n")


def cli_words(options):
    words = []
    for keyword, value in options.items():
        for word in psfsim._keywords.words({keyword: value}):
            words.append(word)
    return words


def resolved(case, folder):
    options = dict(BASE)
    for k, v in case.items():
        options[k] = v.replace("{tmp}", folder) if isinstance(v, str) else v
    return options


def datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, node):
            if isinstance(node, h5py.Dataset) and not name.startswith("timings"):
                out[name] = node[...]
        f.visititems(visit)
    return out


def test_every_run_option_is_a_keyword(cli):
    help_text = cli("run", "--help").stdout
    keywords = psfsim.keywords()
    for row in psfsim._keywords.OPTIONS.values():
        assert row["flag"] in help_text, row["flag"]
        assert row["keyword"] == row["flag"][2:].replace("-", "_")
    assert set(CASES) == set(keywords) - {"config"}, "a keyword without a case, or a case too many"


@pytest.mark.parametrize("keyword", sorted(CASES))
def test_keyword_gives_the_cli_file(keyword, cli, tmp_path):
    folder = str(tmp_path)
    make_inputs(folder)
    options = resolved(CASES[keyword], folder)
    ours = os.path.join(folder, "python.h5")
    theirs = os.path.join(folder, "cli.h5")
    psfsim.run(output=ours, **options)
    done = cli("run", "-o", theirs, *cli_words(options))
    assert done.returncode == 0, done.stderr
    a, b = datasets(ours), datasets(theirs)
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].dtype == b[name].dtype, name
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)

    in_memory = {k: v for k, v in options.items() if k not in ("force", "repeat", "compression")}
    result = psfsim.psf(**in_memory)
    frames, metrics = (result, None) if not isinstance(result, (tuple, dict)) else (
        (result[0], result[1]) if isinstance(result, tuple) else (None, result))
    if frames is not None:
        stored = b["psf"]
        assert frames.dtype == stored.dtype
        assert frames.tobytes() == (stored[0] if frames.ndim == 2 else stored).tobytes()
    if metrics is not None:
        for name, values in metrics.items():
            expected = b[f"metrics/{name}"]
            got = np.asarray(values)
            if got.ndim == expected.ndim - 1:
                expected = expected[0]
            assert got.tobytes() == np.ascontiguousarray(expected).tobytes(), name


def test_version_and_commit_are_the_cli_s(cli, tmp_path):
    # One build: the module, the CLI and the files both write name the same code.
    version = cli("--version").stdout.strip()
    assert version == f"psfsim {psfsim.__version__} ({psfsim.git_commit})"
    path = str(tmp_path / "x.h5")
    psfsim.run(output=path, samples=16)
    with h5py.File(path, "r") as f:
        assert f.attrs["psfsim_version"] == psfsim.__version__
        assert f.attrs["git_commit"] == psfsim.git_commit
