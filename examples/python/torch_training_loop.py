#!/usr/bin/env python3
"""A PyTorch training loop fed by psfsim on the GPU: each step draws random low-order
aberrations, psfsim computes their PSFs straight into a CUDA tensor (out=, no file and no host
copy of the frames), and a small network learns to read the coefficients back from the PSFs.

  PYTHONPATH=build/python python3 examples/python/torch_training_loop.py [--steps 200]

Needs PyTorch and a usable CUDA device (the GPU machine's python3 has both).
"""
import argparse
import sys
import time

import numpy as np

import psfsim

TERMS = ["Z4", "Z5", "Z6", "Z7", "Z8"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("torch_training_loop.py: PyTorch is not importable here")
    try:
        sim = psfsim.Simulator(backend="cuda", samples=64, crop=32, result="device")
    except psfsim.RuntimeFailure as e:
        sys.exit(f"torch_training_loop.py: no usable GPU: {e}")

    k = sim.frame_shape[0]
    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(32 * (k // 4) ** 2, 64), torch.nn.ReLU(),
        torch.nn.Linear(64, len(TERMS))).cuda()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    frames = torch.empty((args.batch, k, k), device="cuda")
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for step in range(args.steps):
        coefficients = rng.normal(0.0, 0.1, (args.batch, len(TERMS)))
        sim.batch(coefficients, TERMS, out=frames)  # waits for torch's stream, fills in place
        x = torch.log10(frames.clamp_min(1e-6)).unsqueeze(1)
        target = torch.as_tensor(coefficients, dtype=torch.float32, device="cuda")
        loss = torch.nn.functional.mse_loss(net(x), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0 or step == args.steps - 1:
            print(f"step {step:4d}  loss {loss.item():.5f}")
    elapsed = time.perf_counter() - start
    print(f"{args.steps * args.batch / elapsed:.0f} PSFs/s through the whole loop")


if __name__ == "__main__":
    main()
