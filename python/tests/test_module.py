"""The module's own promises: the seed's NumPy pipeline to the spec's tolerances, shapes and
dtypes of frames and metrics, out= in place, DLPack on the host, errors and their types, the
GIL, threads, and psfsim.open."""
import gc
import os
import resource
import threading
import time
import tracemalloc

import numpy as np
import pytest
from conftest import in_keywords, psfsim
from seed_pipeline import SEED_OPTIONS, seed_psf


def rel_l2(a, b):
    return float(np.linalg.norm(a.astype(np.float64) - b) / np.linalg.norm(b))


# docs/spec.md, normalization none: relative L2 error below 1e-10 in double, 1e-5 in single.
@pytest.mark.parametrize("precision,tolerance", [("double", 1e-10), ("single", 1e-5)])
def test_seed_pipeline(precision, tolerance):
    frame = psfsim.psf(**SEED_OPTIONS, precision=precision, backend="cpu")
    assert frame.shape == (256, 256)
    assert frame.dtype == (np.float64 if precision == "double" else np.float32)
    assert rel_l2(frame, seed_psf()) < tolerance


def test_peak_normalization_is_strehl_on_axis():
    flat = psfsim.psf(samples=64, backend="cpu", precision="double")
    assert flat[64, 64] == pytest.approx(1.0, abs=1e-12)
    defocus = psfsim.psf(samples=64, backend="cpu", precision="double", zernike={4: 0.05})
    # Marechal: S ~ exp(-(2 pi sigma)^2) for small RMS sigma, within a few 1e-4 at 0.05 waves.
    assert defocus[64, 64] == pytest.approx(np.exp(-(2 * np.pi * 0.05) ** 2), abs=3e-3)


def test_batches_and_metrics_shapes():
    sim = psfsim.Simulator(samples=32, crop=16, backend="cpu", metrics="strehl,centroid,ee",
                           ee_radii=[1, 2])
    frames, metrics = sim(vary=("Z4", 0, 0.2, 5))
    assert frames.shape == (5, 16, 16) and frames.dtype == np.float32
    assert set(metrics) == {"strehl", "centroid_x", "centroid_y", "ee"}
    assert metrics["strehl"].shape == (5,) and metrics["ee"].shape == (5, 2)
    assert np.all(np.diff(metrics["strehl"]) < 0)  # more defocus, less Strehl
    one, m1 = sim(zernike={4: 0.1})
    assert one.shape == (16, 16) and isinstance(m1["strehl"], float) and m1["ee"].shape == (2,)
    assert sim.metrics == ["strehl", "centroid_x", "centroid_y", "ee"]
    only = psfsim.Simulator(samples=32, backend="cpu", metrics="strehl", store="metrics")
    assert set(only(vary=("Z4", 0, 0.2, 3))) == {"strehl"}


def test_batch_table_matches_calls_and_vary():
    sim = psfsim.Simulator(samples=32, backend="cpu", precision="double", zernike={11: 0.02})
    coefficients = np.array([[0.1, 0.0], [0.0, 0.05], [-0.1, 0.03]])
    frames = sim.batch(coefficients, ["Z4", "S2_1"])
    assert frames.shape == (3, 64, 64)
    for row, frame in zip(coefficients, frames):
        one = sim(zernike={11: 0.02, 4: row[0]}, seidel=[(2, 1, row[1])])
        np.testing.assert_array_equal(frame, one)
    through = sim.batch(np.linspace(-0.5, 0.5, 3), ["Z4"])
    np.testing.assert_array_equal(through, psfsim.psf(samples=32, backend="cpu", precision="double",
                                                     zernike={11: 0.02}, vary="Z4,-0.5,0.5,3"))


def test_batch_table_in_nanometres_overriding_a_fixed_term_matches_calls():
    # The rows compile from one template (no frame's terms built): the same tables as a call
    # that sets the same terms, bit for bit, with the units' scale and a fixed term replaced.
    sim = psfsim.Simulator(samples=32, backend="cpu", precision="double", aberration_units="nm",
                           wavelength="600nm", zernike={4: 30.0, 7: 12.0}, seidel=[(3, 1, 20.0)])
    coefficients = np.array([[-40.0, 8.0, 15.0], [25.0, -6.0, 0.0]])
    frames = sim.batch(coefficients, ["Z4", "S4_0", "Z22"])
    for row, frame in zip(coefficients, frames):
        one = sim(zernike={7: 12.0, 4: row[0], 22: row[2]}, seidel=[(3, 1, 20.0), (4, 0, row[1])])
        np.testing.assert_array_equal(frame, one)


def test_a_larger_batch_replans_and_agrees():
    sim = psfsim.Simulator(samples=32, backend="cpu", precision="double")
    first = sim(zernike={4: 0.1})
    many = sim.batch(np.full((300, 1), 0.1), ["Z4"])
    assert many.shape == (300, 64, 64)
    assert rel_l2(many[-1], first) < 1e-13


def test_results_kept_across_calls_keep_their_frames():
    # Each result owns its memory (on a GPU, the backend's own block handed over), however
    # many are kept and after the Simulator is gone; it is an ordinary writeable array.
    sim = psfsim.Simulator(samples=32, precision="double")
    coefficients = (0.0, 0.1, 0.2, 0.3, 0.4)
    kept = [sim(zernike={4: c}) for c in coefficients]
    del sim
    for c, frame in zip(coefficients, kept):
        np.testing.assert_array_equal(
            frame, psfsim.psf(samples=32, precision="double", zernike={4: c}))
        assert frame.flags.writeable and frame.flags.c_contiguous and frame.shape == (64, 64)


def test_a_batch_let_go_lends_its_memory_to_the_next_of_its_size():
    # A batch's array let go is taken back by its Simulator, so that a loop's next batch does
    # not fault in fresh pages (above glibc's mmap threshold, 32 MiB at most, every new block
    # is fresh from the kernel); an array still held is never written again.
    sim = psfsim.Simulator(samples=32, backend="cpu", precision="double")
    coefficients = np.random.default_rng(3).normal(0.0, 0.1, (1200, 3))  # 37.5 MiB of frames
    terms = ["Z4", "Z5", "Z6"]
    first = sim.batch(coefficients, terms)
    first_values = first.copy()
    held = sim.batch(coefficients[::-1], terms)
    held_values = held.copy()
    del first
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    again = sim.batch(coefficients, terms)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    pages = again.nbytes // resource.getpagesize()
    assert faults < pages // 4, f"{faults} page faults for a batch of {pages} pages let go before"
    # The same plan gives the same bytes; a lone frame's plan differs from a batch's (FFTW may
    # take another algorithm for it, on many cores another split), so its values agree only
    # to double precision's rounding.
    np.testing.assert_array_equal(again, first_values)
    np.testing.assert_array_equal(held, held_values)
    for i in (0, 599, 1199):
        a, b, c = coefficients[i]
        expected = psfsim.psf(samples=32, precision="double", zernike={4: a, 5: b, 6: c})
        assert rel_l2(again[i], expected) < 1e-12, i


def test_out_writes_in_place_without_allocating():
    sim = psfsim.Simulator(samples=64, backend="cpu")
    out = np.zeros((128, 128), np.float32)
    address = out.ctypes.data
    sim(out=out)  # warm
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(20):
        result = sim(zernike={4: 0.1}, out=out)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert result is out and out.ctypes.data == address
    assert grown < out.nbytes // 4, f"{grown} bytes allocated by 20 calls with out="
    np.testing.assert_array_equal(out, psfsim.psf(samples=64, backend="cpu", zernike={4: 0.1}))
    batch = np.empty((4, 128, 128), np.float32)
    assert sim.batch(np.zeros((4, 1)), ["Z4"], out=batch) is batch


@pytest.mark.parametrize("bad,words", [
    (np.zeros((64, 64), np.float32), "shape (64, 64) where the frames are (128, 128)"),
    (np.zeros((128, 128), np.float64), "dtype float64 where the frames are float32"),
    (np.zeros((128, 256), np.float32)[:, ::2], "C-contiguous"),
    ([0.0] * 4, "is no array psfsim can write into"),
])
def test_out_refused(bad, words):
    with pytest.raises(psfsim.InputError, match=None) as e:
        psfsim.Simulator(samples=64, backend="cpu")(out=bad)
    assert words in str(e.value)


def test_read_only_out_refused():
    out = np.zeros((128, 128), np.float32)
    out.flags.writeable = False
    with pytest.raises(psfsim.InputError, match="read-only"):
        psfsim.psf(samples=64, backend="cpu", out=out)


def test_dlpack_on_the_host_shares_memory():
    sim = psfsim.Simulator(samples=32, backend="cpu", result="device")
    frames = sim(vary=("Z4", 0, 0.1, 3))
    assert isinstance(frames, psfsim.FrameArray)
    assert frames.shape == (3, 64, 64) and frames.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(frames)
    b = frames.numpy()
    assert a.ctypes.data == b.ctypes.data  # both views of psfsim's memory, no copy
    expected = psfsim.psf(samples=32, backend="cpu", vary=("Z4", 0, 0.1, 3))
    np.testing.assert_array_equal(a, expected)
    del frames, b
    gc.collect()
    np.testing.assert_array_equal(a, expected)  # the view keeps the memory alive
    with pytest.raises(AttributeError):
        sim().__cuda_array_interface__


def test_error_types_and_messages(cli):
    assert issubclass(psfsim.InputError, ValueError)
    assert issubclass(psfsim.RuntimeFailure, RuntimeError)
    with pytest.raises(psfsim.InputError) as e:
        psfsim.psf(samples=1)
    done = cli("run", "--samples", "1", "-o", "unused.h5")
    assert done.returncode == 2
    assert str(e.value) == in_keywords(done.stderr)
    assert "psfsim:" not in str(e.value)
    with pytest.raises(psfsim.InputError, match="pad_factor and padded_size"):
        psfsim.psf(pad_factor=2, padded_size=300)
    with pytest.raises(psfsim.InputError, match="unknown keyword 'pad'"):
        psfsim.psf(pad=2)
    with pytest.raises(psfsim.InputError, match="psfsim.run"):
        psfsim.psf(output="x.h5")
    with pytest.raises(psfsim.InputError, match="fixed by the Simulator"):
        psfsim.Simulator(samples=16)(samples=32)
    with pytest.raises(psfsim.InputError, match="quiet: 3"):
        psfsim.psf(quiet=3)


def test_run_errors_match_the_cli(tmp_path, cli):
    target = tmp_path / "exists.h5"
    target.write_bytes(b"not ours")
    with pytest.raises((psfsim.InputError, psfsim.RuntimeFailure)) as e:
        psfsim.run(output=target, samples=16)
    done = cli("run", "--samples", "16", "-o", str(target))
    assert done.returncode == (2 if isinstance(e.value, psfsim.InputError) else 3)
    assert str(e.value) == in_keywords(done.stderr)
    assert target.read_bytes() == b"not ours"
    with pytest.raises(psfsim.RuntimeFailure):
        psfsim.run(output=tmp_path / "no-such-folder" / "x.h5", samples=16)
    assert sorted(os.listdir(tmp_path)) == ["exists.h5"]


def test_run_with_config_and_open(tmp_path):
    config = tmp_path / "x.toml"
    config.write_text('[run]\nsamples = 32\nmetrics = "strehl,ee"\nvary = "Z4,0,0.2,3"\n')
    path = psfsim.run(output=tmp_path / "x.h5", config=config, crop=16, backend="cpu")
    ds = psfsim.open(path)
    assert ds["psf"].shape == (3, 16, 16)
    assert ds["psf"].dims == ("frame", "y", "x")
    assert ds["ee"].dims == ("frame", "ee_radius") and ds["ee_radius"].size == 8
    assert ds["y"].attrs["units"] == "lambda/D"
    np.testing.assert_allclose(ds["Z4"].values, [0, 0.1, 0.2])
    assert "samples = 32" in ds.attrs["config"]
    frames, metrics = psfsim.psf(config=config, crop=16, backend="cpu")
    np.testing.assert_array_equal(ds["psf"].values, frames)
    np.testing.assert_array_equal(ds["strehl"].values, metrics["strehl"])
    with pytest.raises(psfsim.InputError, match="not a psfsim file"):
        import h5py
        with h5py.File(tmp_path / "other.h5", "w") as f:
            f["a"] = 1
        psfsim.open(tmp_path / "other.h5")


def test_quantities_and_python_forms():
    units = pytest.importorskip("astropy.units")
    a = psfsim.psf(backend="cpu", samples=32, wavelength=2 * units.um, diameter=1 * units.m,
                   pixel_scale=0.1 * units.arcsec, crop=16)
    b = psfsim.psf(backend="cpu", samples=32, wavelength="2um", diameter="1m", pixel_scale="100mas",
                   crop=16)
    np.testing.assert_array_equal(a, b)
    c = psfsim.psf(backend="cpu", samples=32, wavelength=2000 * units.nm, diameter=100 * units.cm,
                   pixel_scale=100 * units.mas, crop=16)
    assert rel_l2(c, b) < 1e-6


def test_the_gil_is_released_during_a_call():
    sim = psfsim.Simulator(samples=256, backend="cpu", threads=1)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    thread.start()
    start = time.perf_counter()
    sim.batch(np.zeros((200, 1)), ["Z4"])
    end = time.perf_counter()
    done.set()
    thread.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05
    assert len(during) > 10, "the other thread did not run while psfsim computed"


def test_threads_share_one_simulator():
    sim = psfsim.Simulator(samples=32, backend="cpu", precision="double")
    expected = {c: sim(zernike={4: c}) for c in (0.0, 0.1, 0.2, 0.3)}
    errors = []

    def work(c):
        try:
            for _ in range(30):
                np.testing.assert_array_equal(sim(zernike={4: c}), expected[c])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(c,)) for c in expected]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_noise_continues_between_calls():
    sim = psfsim.Simulator(samples=32, backend="cpu", photons=1e4, noise_seed=3)
    a, b = sim(), sim()
    assert not np.array_equal(a, b)
    again = psfsim.Simulator(samples=32, backend="cpu", photons=1e4, noise_seed=3)
    np.testing.assert_array_equal(again(), a)


def test_docstrings_and_version():
    assert "pad_factor" in psfsim.psf.__doc__ and "ee_radii" in psfsim.psf.__doc__
    assert "replace all of the Simulator's own phase options" in psfsim.Simulator.__doc__
    assert psfsim.__version__
    assert "cpu" in psfsim.backends()
    assert "cpu" in psfsim.usable_backends()
    with pytest.raises(psfsim.InputError, match="not a backend"):
        psfsim._psfsim.unusable_reason("tpu")
