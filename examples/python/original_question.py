#!/usr/bin/env python3
"""The session that started psfsim, reproduced: the NumPy pipeline of a 128-sample pupil with
one wave of rho^2 cos(phi), padded to 256, timed with timeit, then psfsim computing the same
PSF in the same process (and CuPy's version of the pipeline where CuPy and a GPU are present).

  PYTHONPATH=build/python /usr/bin/python3 examples/python/original_question.py [--number N]
"""
import argparse
import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import psfsim  # noqa: E402
from seed_pipeline import SEED_OPTIONS, seed_psf  # noqa: E402


def best_us(call, number):
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=100, help="calls per timeit round")
    args = parser.parse_args()

    reference = seed_psf()
    frame = psfsim.psf(**SEED_OPTIONS, precision="double")
    error = np.linalg.norm(frame - reference) / np.linalg.norm(reference)
    print(f"psfsim against the NumPy pipeline, float64: relative L2 error {error:.1e}")

    numpy_us = best_us(lambda: seed_psf(dtype=np.float32), max(1, args.number // 10))
    print(f"NumPy pipeline, float32:          {numpy_us:9.1f} us per PSF")
    sim = psfsim.Simulator(**SEED_OPTIONS, backend="cpu")
    out = np.empty(sim.frame_shape, np.float32)
    ours = best_us(lambda: sim(out=out), args.number)
    print(f"psfsim.Simulator, cpu, float32:    {ours:9.1f} us per PSF ({numpy_us / ours:.0f}x)")
    if "cuda" in psfsim.usable_backends():
        gpu = psfsim.Simulator(**SEED_OPTIONS, backend="cuda", result="device")
        gpu_us = best_us(gpu, args.number)
        print(f"psfsim.Simulator, cuda, on device: {gpu_us:9.1f} us per PSF ({numpy_us / gpu_us:.0f}x)")
        try:
            import cupy
        except ImportError:
            return
        cupy_us = best_us(lambda: cupy.asnumpy(seed_psf(dtype=np.float32, xp=cupy)), args.number)
        print(f"CuPy pipeline, to the host:        {cupy_us:9.1f} us per PSF")


if __name__ == "__main__":
    main()
