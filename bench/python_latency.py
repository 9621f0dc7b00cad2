#!/usr/bin/env python3
"""psfsim from Python against the peers present, side by side in one process (docs/python.md,
docs/performance.md): medians of warm calls.

  - one PSF, N = 128, M = 256, float32 (the original question's case): NumPy's seed pipeline;
    psfsim.Simulator on the CPU to a NumPy array; where a GPU is usable, psfsim to a NumPy
    array and with the frame left on the device, the seed pipeline in CuPy (to the host and
    on the device alone) and jitted in JAX (to the host);
  - the module's overhead: psfsim's call from Python less the engine's own total for the same
    options (psfsim run --repeat R, /timings/total's median, the CLI's in-process figure);
  - GPU batches: N = 128 crop 64 B = 8192 and N = 64 crop 32 B = 16384, into a torch tensor
    (out=, no host copy) and to host memory, in PSFs/s.

  PYTHONPATH=build/python /usr/bin/python3 bench/python_latency.py [--quick] [-o table.md]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))

import numpy as np  # noqa: E402

import psfsim  # noqa: E402
from seed_pipeline import seed_psf  # noqa: E402

ONE = dict(samples=128, pad_factor=2, grid="linspace", seidel=[(2, 1, 1.0)], precision="single",
           wisdom="none", normalize="none")


def median_seconds(call, repeats, warm=100):
    # A hundred warm calls: after a few, the first GPU rows measured twice what the same
    # calls measured later in the run (docs/performance.md, the Python module).
    for _ in range(warm):
        call()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def engine_total(backend, repeats, options=ONE):
    """The CLI's in-process total for `options` on `backend`, in seconds (median of
    /timings/total)."""
    import h5py
    executable = os.environ.get("PSFSIM_EXECUTABLE", os.path.join(ROOT, "build", "apps", "psfsim"))
    if not os.access(executable, os.X_OK):
        return None
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "t.h5")
        words = psfsim._keywords.words(dict(options, backend=backend, repeat=repeats, quiet=True))
        subprocess.run([executable, "run", "-o", out, *words], check=True)
        with h5py.File(out, "r") as f:
            return float(np.median(f["timings/total"][...]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("-o", "--output", help="also write the table (markdown) here")
    args = parser.parse_args()
    r = 50 if args.quick else 500
    rows = []

    def row(what, value, note=""):
        rows.append((what, value, note))
        shown = f"{value:12.0f} PSFs/s" if note == "PSFs/s" else f"{value * 1e6:12.1f} us"
        print(f"{what:62s} {shown}  {note if note != 'PSFs/s' else ''}", flush=True)

    numpy_s = median_seconds(lambda: seed_psf(dtype=np.float32), max(20, r // 10))
    row("NumPy seed pipeline, float32, to a NumPy array", numpy_s)
    cpu = psfsim.Simulator(backend="cpu", **ONE)
    out = np.empty(cpu.frame_shape, np.float32)
    cpu_s = median_seconds(cpu, r)
    row("psfsim cpu, Simulator() to a new NumPy array", cpu_s, f"{numpy_s / cpu_s:.1f}x NumPy")
    cpu_out = median_seconds(lambda: cpu(out=out), r)
    row("psfsim cpu, Simulator(out=)", cpu_out)
    total = engine_total("cpu", r)
    if total is not None:
        row("psfsim cpu, the engine's own total (psfsim run /timings/total)", total)
        row("  module overhead over the engine (out=)", cpu_out - total)

    if "cuda" in psfsim.usable_backends():
        gpu = psfsim.Simulator(backend="cuda", **ONE)
        gpu_dev = psfsim.Simulator(backend="cuda", result="device", **ONE)
        host_s = median_seconds(gpu, r)
        dev_s = median_seconds(gpu_dev, r)
        row("psfsim cuda, Simulator() to a NumPy array", host_s)
        row("psfsim cuda, result='device' (FrameArray)", dev_s)
        metrics_only = psfsim.Simulator(backend="cuda", metrics="strehl", store="metrics", **ONE)
        row("  diagnostic: one PSF, metrics only (no frame leaves the GPU)",
            median_seconds(metrics_only, r))
        row("  diagnostic: one PSF to NumPy, the extension called directly",
            median_seconds(lambda: gpu._engine.own(None, "numpy"), r))
        tiny = psfsim.Simulator(backend="cuda", samples=16, wisdom="none")
        row("  diagnostic: one PSF, N=16, to a NumPy array", median_seconds(tiny, r))
        total = engine_total("cuda", r)
        if total is not None:
            row("psfsim cuda, the engine's own total (psfsim run /timings/total)", total)
            row("  module overhead over the engine (to NumPy)", host_s - total)
        try:
            import cupy
            cupy_host = median_seconds(lambda: cupy.asnumpy(seed_psf(dtype=np.float32, xp=cupy)), r)

            def cupy_device():
                seed_psf(dtype=np.float32, xp=cupy)
                cupy.cuda.get_current_stream().synchronize()
            cupy_dev = median_seconds(cupy_device, r)
            row("CuPy seed pipeline, to the host", cupy_host, f"psfsim {cupy_host / host_s:.0f}x")
            row("CuPy seed pipeline, on the device", cupy_dev, f"psfsim {cupy_dev / dev_s:.0f}x")
        except ImportError:
            print("CuPy not importable: its rows are left out")
        try:
            import jax
            import jax.numpy as jnp
            jitted = jax.jit(lambda: seed_psf(dtype=np.float32, xp=jnp))
            jax_host = median_seconds(lambda: np.asarray(jitted()), r)
            row("JAX seed pipeline (jit), to the host", jax_host, f"psfsim {jax_host / host_s:.0f}x")
        except ImportError:
            print("JAX not importable: its rows are left out")
        batches(row, args.quick)

    if args.output:
        with open(args.output, "w") as f:
            f.write(f"psfsim {psfsim.__version__} ({psfsim._psfsim.git_commit}), "
                    f"Python {sys.version.split()[0]}, NumPy {np.__version__}, "
                    f"{os.cpu_count()} cores\n\n| case | median | note |\n|---|---:|---|\n")
            for what, seconds, note in rows:
                shown = f"{seconds:.3g} PSFs/s" if note == "PSFs/s" else f"{seconds * 1e6:.1f} us"
                f.write(f"| {what.strip()} | {shown} | {'' if note == 'PSFs/s' else note} |\n")


def batches(row, quick):
    try:
        import torch
    except ImportError:
        print("torch not importable: the batch rows into a tensor are left out")
        torch = None
    for n, k, b in ((128, 64, 8192), (64, 32, 16384)):
        options = dict(backend="cuda", samples=n, crop=k, precision="single", wisdom="none")
        rng = np.random.default_rng(1)
        coefficients = rng.normal(0, 0.05, (b, 3))
        terms = ["Z4", "Z5", "Z6"]
        repeats = 5 if quick else 20
        if torch is not None:
            sim = psfsim.Simulator(**options, result="device")
            tensor = torch.empty((b, k, k), device="cuda")
            s = median_seconds(lambda: sim.batch(coefficients, terms, out=tensor), repeats, warm=2)
            rows_per_s = b / s
            row(f"batch N={n} crop={k} B={b} into a torch tensor", rows_per_s, "PSFs/s")
        metrics_only = psfsim.Simulator(**options, metrics="strehl", store="metrics")
        s = median_seconds(lambda: metrics_only.batch(coefficients, terms), repeats, warm=2)
        row(f"  diagnostic: the same batch, metrics only", b / s, "PSFs/s")
        engine = engine_total("cuda", repeats, dict(options, random=f"4-6,0.05,{b},1"))
        if engine is not None:
            row(f"  the engine's own (psfsim run --random ... B={b}, /timings/total)", b / engine,
                "PSFs/s")
        sim = psfsim.Simulator(**options)
        host = np.empty((b, k, k), np.float32)
        s = median_seconds(lambda: sim.batch(coefficients, terms, out=host), repeats, warm=2)
        row(f"batch N={n} crop={k} B={b} to a NumPy array", b / s, "PSFs/s")


if __name__ == "__main__":
    main()
