"""Frames that stay on the GPU: CuPy, PyTorch and JAX take them without a copy (the same
device address), out= fills their arrays in place, and the consumer's stream sees complete
frames. Skipped without a usable CUDA device (every machine but the GPU machine)."""
import numpy as np
import pytest
from conftest import psfsim, requires_gpu

pytestmark = requires_gpu

OPTIONS = dict(backend="cuda", samples=128, crop=64, precision="double")


def reference(**phase):
    return psfsim.psf(**dict(OPTIONS, backend="cpu"), **phase)


def rel_l2(a, b):
    a = np.asarray(a, np.float64)
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def test_device_frames_agree_with_the_cpu():
    sim = psfsim.Simulator(**OPTIONS, result="device")
    frames = sim(zernike={4: 0.1, 11: 0.03})
    assert frames.device == "cuda" and frames.__dlpack_device__()[0] == 2
    assert rel_l2(frames.numpy(), reference(zernike={4: 0.1, 11: 0.03})) < 1e-10
    host = psfsim.Simulator(**OPTIONS)(zernike={4: 0.1, 11: 0.03})
    assert isinstance(host, np.ndarray)
    assert rel_l2(host, reference(zernike={4: 0.1, 11: 0.03})) < 1e-10


def test_cupy_takes_frames_without_a_copy():
    cupy = pytest.importorskip("cupy")
    frames = psfsim.Simulator(**OPTIONS, result="device").batch(np.zeros((8, 1)), ["Z4"])
    pointer = frames.__cuda_array_interface__["data"][0]
    a = cupy.from_dlpack(frames)
    b = cupy.asarray(frames)  # through __cuda_array_interface__
    assert a.data.ptr == pointer and b.data.ptr == pointer
    assert a.shape == (8, 64, 64)
    assert rel_l2(cupy.asnumpy(a[3]), reference()) < 1e-10


def test_torch_takes_frames_without_a_copy_and_out_fills_a_tensor():
    torch = pytest.importorskip("torch")
    sim = psfsim.Simulator(**dict(OPTIONS, precision="single"), result="device")
    frames = sim.batch(np.zeros((4, 1)), ["Z4"])
    t = torch.from_dlpack(frames)
    assert t.is_cuda and t.data_ptr() == frames.__cuda_array_interface__["data"][0]
    out = torch.full((16, 64, 64), -1.0, device="cuda")  # queued on torch's stream
    address = out.data_ptr()
    coefficients = np.linspace(0, 0.2, 16)[:, None]
    assert sim.batch(coefficients, ["Z4"], out=out) is out
    assert out.data_ptr() == address
    expected = psfsim.psf(**dict(OPTIONS, backend="cpu", precision="single"),
                          vary="Z4,0,0.2,16")
    assert rel_l2(out.cpu().numpy(), expected) < 1e-5


def test_torch_side_stream_work_is_waited_for():
    torch = pytest.importorskip("torch")
    sim = psfsim.Simulator(**dict(OPTIONS, precision="single"))
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        out = torch.empty((32, 64, 64), device="cuda")
        big = torch.randn(4096, 4096, device="cuda")
        for _ in range(20):  # keeps the side stream busy while psfsim is called
            big = big @ big.T / 4096
        out.fill_(7.0)
        sim.batch(np.zeros((32, 1)), ["Z4"], out=out)
    torch.cuda.synchronize()
    assert float(out.max()) < 1.5, "a fill queued before the call overwrote the frames"


def test_jax_takes_frames_without_a_copy():
    jax = pytest.importorskip("jax")
    import jax.dlpack
    # float32: JAX holds float64 only with jax_enable_x64, and would convert (copy) the frames.
    single = dict(OPTIONS, precision="single")
    frames = psfsim.Simulator(**single, result="device").batch(np.zeros((2, 1)), ["Z4"])
    pointer = frames.__cuda_array_interface__["data"][0]
    a = jax.dlpack.from_dlpack(frames)
    assert a.dtype == np.float32
    assert a.unsafe_buffer_pointer() == pointer
    expected = psfsim.psf(**dict(single, backend="cpu"))
    assert rel_l2(np.asarray(a[0]), expected) < 1e-5


def test_cupy_out_and_wrong_device_array():
    cupy = pytest.importorskip("cupy")
    sim = psfsim.Simulator(**OPTIONS)
    out = cupy.zeros((64, 64), cupy.float64)
    assert sim(out=out) is out
    assert rel_l2(cupy.asnumpy(out), reference()) < 1e-10
    with pytest.raises(psfsim.InputError, match="dtype"):
        sim(out=cupy.zeros((64, 64), cupy.float32))
    with pytest.raises(psfsim.InputError, match="cannot write into|host memory"):
        psfsim.Simulator(**dict(OPTIONS, backend="cpu"))(out=out)


def test_results_kept_across_calls_keep_their_frames():
    # A lone call's frames are handed over without a copy (the backend's own memory, while
    # two at most are held): each result keeps its values through later calls, however many
    # are kept, and after the Simulator is gone.
    for result in ("numpy", "device"):
        sim = psfsim.Simulator(**OPTIONS, result=result)
        coefficients = np.linspace(-0.2, 0.2, 6)
        kept = [sim(zernike={4: float(c)}) for c in coefficients]
        del sim
        for c, frames in zip(coefficients, kept):
            values = frames if result == "numpy" else frames.numpy()
            assert rel_l2(values, reference(zernike={4: float(c)})) < 1e-10, (result, c)


def test_a_result_let_go_waits_for_a_copy_queued_from_it():
    # A NumPy result over pinned memory, copied to the GPU asynchronously on the legacy
    # stream behind long work, then let go: the later calls that reuse its memory wait for
    # that copy.
    torch = pytest.importorskip("torch")
    single = dict(OPTIONS, precision="single")
    sim = psfsim.Simulator(**single)
    expected = np.array(sim(zernike={4: 0.1}))
    big = torch.randn(4096, 4096, device="cuda")
    frame = sim(zernike={4: 0.1})
    target = torch.empty((64, 64), device="cuda")
    for _ in range(20):  # keeps the legacy stream busy
        big = big @ big.T / 4096
    target.copy_(torch.from_numpy(frame), non_blocking=True)
    del frame
    others = [sim(zernike={4: -0.3}) for _ in range(4)]
    torch.cuda.synchronize()
    assert rel_l2(target.cpu().numpy(), expected) < 1e-6
    assert all(rel_l2(o, reference(zernike={4: -0.3})) < 1e-5 for o in others)


def test_a_batch_into_a_new_array_equals_one_into_the_callers():
    # A batch of several backend calls into a new NumPy array: pinned memory of psfsim's own,
    # which the MFT's calls (more than 256 KiB of frames each) copy into from the device
    # themselves. The same bytes as into the caller's own array (copied in by the host), the
    # CPU's frames to float32's accuracy, untouched by later batches while held, and its memory
    # taken again by the next batch of its size once let go.
    options = dict(backend="cuda", samples=64, crop=48, precision="single", propagation="mft",
                   chunk_frames=64)
    sim = psfsim.Simulator(**options)
    terms = ["Z4", "Z5", "Z6"]
    c = np.random.default_rng(3).normal(0, 0.1, (200, 3))  # calls of 64, 64, 64 and 8 frames
    new = sim.batch(c, terms)
    out = np.empty((200, 48, 48), np.float32)
    sim.batch(c, terms, out=out)
    assert np.array_equal(new, out)
    held = new.copy()
    later = sim.batch(-c, terms)
    assert later.ctypes.data != new.ctypes.data
    assert np.array_equal(new, held)
    address = new.ctypes.data
    del new
    again = sim.batch(c, terms)
    assert again.ctypes.data == address
    assert np.array_equal(again, held)
    cpu = psfsim.Simulator(**dict(options, backend="cpu", precision="double")).batch(c, terms)
    assert rel_l2(again, cpu) < 1e-5
    assert rel_l2(later, psfsim.Simulator(**dict(options, backend="cpu")).batch(-c, terms)) < 1e-5


def test_many_device_results_are_freed():
    cupy = pytest.importorskip("cupy")
    sim = psfsim.Simulator(**OPTIONS, result="device")
    free_before = cupy.cuda.runtime.memGetInfo()[0]
    for _ in range(2000):
        sim()
    assert free_before - cupy.cuda.runtime.memGetInfo()[0] < 256 << 20


def test_torch_training_loop_example():
    pytest.importorskip("torch")
    import subprocess
    import sys
    from conftest import ROOT
    import os
    done = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python",
                                                         "torch_training_loop.py"),
                           "--steps", "60", "--batch", "128"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    losses = [float(line.split("loss ")[1]) for line in done.stdout.splitlines() if "loss" in line]
    assert losses[-1] < losses[0], done.stdout


@pytest.mark.parametrize("options", [
    dict(samples=128),
    dict(samples=96, crop=48, zernike={4: 0.2, 11: 0.05}, precision="double"),
    dict(samples=64, vary=("Z4", -0.5, 0.5, 9), metrics="strehl,ee,centroid"),
    dict(samples=64, wavelength="1um", pixel_scale="0.3lod", crop=40, propagation="mft",
         metrics="strehl"),
])
def test_cuda_keywords_give_the_cli_file(options, cli, tmp_path):
    import h5py
    from test_against_cli import cli_words
    options = dict(options, backend="cuda")
    path = tmp_path / "cli.h5"
    done = cli("run", "-o", str(path), *cli_words(options))
    assert done.returncode == 0, done.stderr
    result = psfsim.psf(**options)
    frames, metrics = result if isinstance(result, tuple) else (result, {})
    with h5py.File(path, "r") as f:
        stored = f["psf"][...]
        assert frames.tobytes() == (stored[0] if frames.ndim == 2 else stored).tobytes()
        for name, values in metrics.items():
            # The GPU's FWHM and centroid sums are not reduced in a fixed order.
            np.testing.assert_allclose(values, f[f"metrics/{name}"][...], rtol=1e-12, atol=0)


def test_out_not_in_gpu_memory_is_refused():
    host = np.zeros((64, 64), np.float64)

    class HostPretendingToBeCuda:  # a CUDA array interface over host memory
        __cuda_array_interface__ = {"shape": (64, 64), "typestr": "<f8", "version": 3,
                                    "data": (host.ctypes.data, False), "strides": None}

    with pytest.raises(psfsim.InputError, match="not in GPU memory"):
        psfsim.Simulator(**OPTIONS)(out=HostPretendingToBeCuda())
