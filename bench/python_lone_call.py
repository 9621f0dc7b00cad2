#!/usr/bin/env python3
"""Where a lone Python call of one PSF spends its time (docs/performance.md, the Python
module's targets): medians of warm calls of the original question's case (N = 128, M = 256,
float32, the whole frame), each way of calling it beside the others in one process, and a
one-kernel round trip through PyTorch as the floor any call pays on the GPU.

With --cpu: the cpu backend at N = 16, 64 and 128, `sim()` and `sim(out=)` beside the engine's
own total for the same options (`psfsim run --repeat`, PSFSIM_EXECUTABLE or build/apps/psfsim):
the module's overhead.

  PYTHONPATH=build-gpu/python-gpu python3 bench/python_lone_call.py
  PYTHONPATH=build/python /usr/bin/python3 bench/python_lone_call.py --cpu
"""
import argparse
import os
import sys

import numpy as np

import psfsim

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_latency import engine_total, median_seconds  # noqa: E402

ONE = dict(samples=128, pad_factor=2, grid="linspace", seidel=[(2, 1, 1.0)], precision="single",
           wisdom="none", normalize="none", backend="cuda")
REPEATS = 3000


def median_us(call):
    return 1e6 * median_seconds(call, REPEATS, warm=100)


def cpu_rows():
    for n in (16, 64, 128):
        options = dict(ONE, backend="cpu", samples=n)
        sim = psfsim.Simulator(**options)
        frame = np.empty(sim.frame_shape, np.float32)
        total = engine_total("cpu", REPEATS, options)
        print(f"N={n}: sim() {median_us(sim):.1f} us, sim(out=) "
              f"{median_us(lambda: sim(out=frame)):.1f} us, the engine's total "
              + ("(no psfsim executable)" if total is None else f"{1e6 * total:.1f} us"),
              flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help="the cpu backend's overhead")
    if parser.parse_args().cpu:
        cpu_rows()
        return
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
