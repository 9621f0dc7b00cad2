#!/usr/bin/env python3
"""Batches from Python at several chunk sizes (psfsim's chunk_frames), medians of 15 calls
after 3. By default: a Simulator's batch of random Z4-Z6 frames into a torch tensor, and the
same batch metrics only, at chunks of 1024 to 16384 frames; shows whether a call's time
follows its frames or its backend calls. With --host: the batch into a new NumPy array and
into the caller's (out=), beside the torch tensor, at the default chunk size and at 4096; shows
what the host's side of a batch (the copy out of the call slots, fresh pages) costs against
the device's work. Run on the GPU machine with the module built there
(bench/python-gpu.sh build):

  PYTHONPATH=build-gpu/python-gpu python3 bench/python_chunk_probe.py [--host]
"""
import sys
import time

import numpy as np
import psfsim
import torch


def med(f, r=15, w=3):
    for _ in range(w):
        f()
    t = []
    for _ in range(r):
        torch.cuda.synchronize()
        a = time.perf_counter()
        f()
        torch.cuda.synchronize()
        t.append(time.perf_counter() - a)
    return float(np.median(t))


host = "--host" in sys.argv[1:]
for n, k, b in ((64, 32, 16384), (128, 64, 8192)):
    c = np.random.default_rng(1).normal(0, 0.05, (b, 3))
    terms = ["Z4", "Z5", "Z6"]
    common = dict(backend="cuda", samples=n, crop=k, precision="single", wisdom="none")
    for chunk in (0, 4096) if host else (1024, 2048, 4096, 8192, 16384):
        if chunk > b:
            continue
        chunking = dict(chunk_frames=chunk) if chunk else {}
        sim = psfsim.Simulator(**common, result="device", **chunking)
        out = torch.empty((b, k, k), device="cuda")
        rows = {"torch": med(lambda: sim.batch(c, terms, out=out))}
        if host:
            to_host = psfsim.Simulator(**common, **chunking)
            rows["new NumPy array"] = med(lambda: to_host.batch(c, terms))
            array = np.empty((b, k, k), np.float32)
            rows["out= NumPy"] = med(lambda: to_host.batch(c, terms, out=array))
        else:
            m = psfsim.Simulator(**common, chunk_frames=chunk, metrics="strehl", store="metrics")
            rows["metrics-only"] = med(lambda: m.batch(c, terms))
        shown = ", ".join(f"{what} {b / s / 1e6:.2f}M/s ({s * 1e3:.2f} ms)"
                          for what, s in rows.items())
        print(f"N={n} B={b} chunk={chunk or 'default'}: {shown}", flush=True)
