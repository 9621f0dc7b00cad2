#!/usr/bin/env python3
"""Where a lone Python call of one PSF on the GPU spends its time (docs/performance.md, the
Python module's targets): medians of warm calls of the original question's case (N = 128,
M = 256, float32, the whole frame), each way of calling it beside the others in one process,
and a one-kernel round trip through PyTorch as the floor any call pays.

  PYTHONPATH=build-gpu/python-gpu python3 bench/python_lone_call.py
"""
import os
import sys

import numpy as np

import psfsim

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_latency import median_seconds  # noqa: E402

ONE = dict(samples=128, pad_factor=2, grid="linspace", seidel=[(2, 1, 1.0)], precision="single",
           wisdom="none", normalize="none", backend="cuda")
REPEATS = 3000


def median_us(call):
    return 1e6 * median_seconds(call, REPEATS, warm=100)


def main():
    if "cuda" not in psfsim.usable_backends():
        print("cuda backend not usable here")
        return
    rows = []
    device = psfsim.Simulator(**ONE, result="device")
    host = psfsim.Simulator(**ONE)
    tiny = psfsim.Simulator(**dict(ONE, samples=16), result="device")
    frame = np.empty(host.frame_shape, np.float32)
    rows.append(("result='device', sim()", median_us(device)))
    rows.append(("result='device', the extension called directly",
                 median_us(lambda: device._engine.own(None, "device"))))
    rows.append(("result='device', N = 16", median_us(tiny)))
    rows.append(("to NumPy, sim()", median_us(host)))
    rows.append(("to NumPy, sim(out=)", median_us(lambda: host(out=frame))))
    try:
        import torch
        tensor = torch.empty(device.frame_shape, device="cuda")
        rows.append(("result='device', sim(out=a torch tensor)",
                     median_us(lambda: device(out=tensor))))
        one = torch.zeros(1, device="cuda")

        def round_trip():
            one.add_(1.0)
            torch.cuda.synchronize()
        rows.append(("floor: one torch kernel and its wait", median_us(round_trip)))
    except ImportError:
        pass
    for what, us in rows:
        print(f"{what:55s} {us:8.1f} us", flush=True)


if __name__ == "__main__":
    main()
