#!/usr/bin/env python3
"""Device batches from Python at several chunk sizes (psfsim's chunk_frames): a Simulator's
batch of random Z4-Z6 frames into a torch tensor, and the same batch metrics only, medians
of 15 calls after 3. Shows whether a call's time follows its frames or its backend calls.
Run on the GPU machine with the module built there (bench/python-gpu.sh build):

  PYTHONPATH=build-gpu/python-gpu python3 bench/python_chunk_probe.py
"""
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


for n, k, b in ((64, 32, 16384), (128, 64, 8192)):
    c = np.random.default_rng(1).normal(0, 0.05, (b, 3))
    terms = ["Z4", "Z5", "Z6"]
    common = dict(backend="cuda", samples=n, crop=k, precision="single", wisdom="none")
    for chunk in (1024, 2048, 4096, 8192, 16384):
        if chunk > b:
            continue
        sim = psfsim.Simulator(**common, result="device", chunk_frames=chunk)
        out = torch.empty((b, k, k), device="cuda")
        s = med(lambda: sim.batch(c, terms, out=out))
        m = psfsim.Simulator(**common, chunk_frames=chunk, metrics="strehl", store="metrics")
        s2 = med(lambda: m.batch(c, terms))
        print(f"N={n} B={b} chunk={chunk}: torch {b / s / 1e6:.2f}M/s ({s * 1e3:.2f} ms), "
              f"metrics-only {b / s2 / 1e6:.2f}M/s", flush=True)
