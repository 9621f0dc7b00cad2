#!/usr/bin/env python3
"""Checks psfsim's optical trains (docs/coronagraphy.md) against brute-force references
written here with NumPy: the pupil's FFT padded Q times, the mask applied on that grid, the
inverse FFT, the Lyot stop, and the detector by a direct matrix DFT.
Usage: check_coronagraph.py PSFSIM_BINARY WORKDIR [BACKEND]"""
import os
import subprocess
import sys

import h5py
import numpy as np

psfsim, work = sys.argv[1], sys.argv[2]
backend = sys.argv[3] if len(sys.argv) > 3 else "cpu"
os.makedirs(work, exist_ok=True)
failures = []
S, K = 0.25, 96  # detector: lambda/D per pixel, pixels


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message)
    if not ok:
        failures.append(message)


def run(name, *args, precision="double"):
    out = os.path.join(work, name + ".h5")
    cmd = [psfsim, "run", "--backend", backend, "--force", "--quiet", "-o", out,
           "--precision", precision, "--pixel-scale", f"{S}lod", "--crop", str(K), *args]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with h5py.File(out, "r") as f:
        return f["psf"][...].astype(np.float64)


def grid(n):
    return (np.arange(n) - n / 2) * (2.0 / n)  # the centered grid, x in [-1, 1)


def circle(n, diameter=1.0, obscuration=0.0):
    x = grid(n) / diameter
    r = np.hypot(*np.meshgrid(x, x))
    return ((r <= 1) & (r >= obscuration / diameter)).astype(float)


def detector(field):
    n = field.shape[0]
    theta = (np.arange(K) - K // 2) * S
    a = np.exp(-2j * np.pi * np.outer(theta, grid(n) / 2))
    return np.abs(a @ field @ a.T) ** 2


def through_mask(pupil, q, mask_of):
    """The field after a focal-plane mask, by an FFT padded q times: theta_k = k/q lambda/D."""
    n = pupil.shape[0]
    m = q * n
    padded = np.zeros((m, m), complex)
    padded[:n, :n] = pupil
    theta = np.fft.fftfreq(m) * m / q
    tx, ty = np.meshgrid(theta, theta)
    return np.fft.ifft2(np.fft.fft2(padded) * mask_of(tx, ty))[:n, :n]


def brute(pupil, stop, q, mask_of):
    return detector(through_mask(pupil, q, mask_of) * stop) / np.abs((pupil * stop).sum()) ** 2


def spot(radius, transmission=0.0):
    return lambda tx, ty: np.where(np.hypot(tx, ty) <= radius, np.sqrt(transmission), 1.0)


def vortex(charge):
    def mask(tx, ty):
        v = np.exp(1j * charge * np.arctan2(ty, tx))
        v[(tx == 0) & (ty == 0)] = 0
        return v
    return mask


def fqpm(tx, ty):
    return np.sign(tx) * np.sign(ty)


def rel_l2(a, b, where=None):
    if where is not None:
        a, b = a[where], b[where]
    return np.linalg.norm(a - b) / np.linalg.norm(b)


theta = (np.arange(K) - K // 2) * S
separation = np.hypot(*np.meshgrid(theta, theta))
dark_hole = (separation >= 3) & (separation <= 20)

# A Lyot coronagraph: a 3 lambda/D spot sampled at j/Q lambda/D, as the FFT padded Q times
# samples it, and a 0.9 D stop. Agreement to rounding: the same sums in another order.
n = 64
pupil, stop = circle(n), circle(n, 0.9)
for q in (4, 8, 16):
    got = run(f"lyot_q{q}", "--samples", str(n), "--coronagraph", "lyot:3", "--lyot-stop", "0.9",
              "--mask-sampling", str(q))[0]
    want = brute(pupil, stop, q, spot(3))
    check(rel_l2(got, want) <= 1e-6, f"lyot:3 Q={q} vs FFT padded {q}: rel L2 {rel_l2(got, want):.2e}")
# r Q whole above: the four samples on the axes at the rim are a pass of their own
# (docs/coronagraphy.md); not at r = 2.9, Q = 16.
got = run("lyot_2.9", "--samples", str(n), "--coronagraph", "lyot:2.9", "--lyot-stop", "0.9")[0]
want = brute(pupil, stop, 16, spot(2.9))
check(rel_l2(got, want) <= 1e-6, f"lyot:2.9 Q=16 vs FFT padded 16: rel L2 {rel_l2(got, want):.2e}")
# Converging as the spot's grid is refined: each doubling nearer the finest.
finest = brute(pupil, stop, 64, spot(3))
errors = [rel_l2(run(f"lyot_q{q}", "--samples", str(n), "--coronagraph", "lyot:3", "--lyot-stop",
                     "0.9", "--mask-sampling", str(q))[0], finest) for q in (4, 8, 16)]
check(errors[0] > errors[1] > errors[2], f"lyot converging with Q: {np.round(errors, 5)}")

# A grey spot, an obscured pupil and a stop with its own obscuration and spiders.
pupil_obs = circle(n, 1.0, 0.3)
got = run("lyot_grey", "--samples", str(n), "--obscuration", "0.3", "--coronagraph",
          "lyot:2.5,0.01", "--lyot-stop", "0.85,0.4")[0]
want = brute(pupil_obs, circle(n, 0.85, 0.4), 16, spot(2.5, 0.01))
check(rel_l2(got, want) <= 1e-6, f"grey spot, obscured: rel L2 {rel_l2(got, want):.2e}")

# An empty mask (transmission 1) is the ordinary PSF through the stop.
got = run("lyot_empty", "--samples", str(n), "--coronagraph", "lyot:3,1", "--lyot-stop", "0.9")[0]
want = detector(pupil * stop) / np.abs((pupil * stop).sum()) ** 2
check(rel_l2(got, want) <= 1e-12, f"empty mask = PSF through the stop: {rel_l2(got, want):.2e}")

# Babinet: the spot's field is the clear field less the pinhole's, here by a direct matrix
# DFT through the pinhole's samples rather than an FFT.
q = 16
j = np.arange(-3 * q, 3 * q + 1)
tj = j / q
a = np.exp(-2j * np.pi * np.outer(tj, grid(n) / 2))
tx, ty = np.meshgrid(tj, tj)
hole = (np.hypot(tx, ty) <= 3).astype(float)
pinhole = (a.conj().T @ (hole * (a @ pupil @ a.T)) @ a.conj()) / (q * n) ** 2
want = detector((pupil - pinhole) * stop) / np.abs((pupil * stop).sum()) ** 2
got = run("lyot_q16", "--samples", str(n), "--coronagraph", "lyot:3", "--lyot-stop", "0.9",
          "--mask-sampling", "16")[0]
check(rel_l2(got, want) <= 1e-6, f"Babinet: spot = clear - pinhole: {rel_l2(got, want):.2e}")

# The ideal vortex, charges 2, 4 and 6, behind a 0.95 D stop, against an FFT 2048 wide
# (padded 32 times at N = 64, 16 at N = 128): at N = 64, charge 4, padding 16 is still 5 %
# from 32.
worst = {}
for charge in (2, 4, 6):
    for n in (64, 128):
        got = run(f"vortex{charge}_{n}", "--samples", str(n), "--coronagraph", f"vortex:{charge}",
                  "--lyot-stop", "0.95")[0]
        if n == 64 or charge == 6:
            want = brute(circle(n), circle(n, 0.95), 2048 // n, vortex(charge))
            err = rel_l2(got, want, dark_hole)
            check(err <= 5e-2, f"vortex:{charge} N={n} vs FFT padded {2048 // n}, 3-20 lambda/D: "
                  f"{err:.2e}")
            if n == 64 and charge == 4:  # why the reference is this wide (docs/coronagraphy.md)
                coarser = brute(circle(n), circle(n, 0.95), 16, vortex(charge))
                print(f"     (the FFT padded 16 against 32 there: {rel_l2(coarser, want, dark_hole):.2e})")
        worst[charge, n] = got.max()
# The residual is the sampled pupil's: it falls at least as N^-2.5.
for charge in (2, 4, 6):
    got = run(f"vortex{charge}_256", "--samples", "256", "--coronagraph", f"vortex:{charge}",
              "--lyot-stop", "0.95")[0]
    slope = np.log(worst[charge, 64] / got.max()) / np.log(4)
    check(slope >= 2.5, f"vortex:{charge} residual {worst[charge, 64]:.2e} (N=64) -> "
          f"{got.max():.2e} (N=256): N^-{slope:.2f}")
# An aberration leaks light through it, so that the checks above can fail. A vortex of charge
# l rejects the Zernikes of n + |m| < l to first order: defocus leaks through charge 2, and
# secondary spherical (Z22, n = 6) through charge 6.
for charge, term in ((2, "4,0.01"), (6, "22,0.01")):
    got = run(f"vortex_leak{charge}", "--samples", "128", "--coronagraph", f"vortex:{charge}",
              "--lyot-stop", "0.95", "--zernike", term)[0]
    check(got[dark_hole].max() >= 1e-5,
          f"vortex:{charge} with Z{term.split(',')[0]} = 0.01 waves RMS: worst contrast "
          f"{got[dark_hole].max():.2e}")

# The four-quadrant phase mask.
n = 64
got = run("fqpm", "--samples", str(n), "--coronagraph", "fqpm", "--lyot-stop", "0.95")[0]
want = brute(circle(n), circle(n, 0.95), 32, fqpm)
err = rel_l2(got, want, dark_hole)
check(err <= 5e-2, f"fqpm vs FFT padded 32, 3-20 lambda/D: {err:.2e}")

# Single precision stays within float's rounding of the double frames, relative to the peak
# of the unmasked PSF (1 under `peak`).
single = run("lyot_single", "--samples", "64", "--coronagraph", "lyot:3", "--lyot-stop", "0.9",
             precision="single")[0]
double = run("lyot_q16", "--samples", "64", "--coronagraph", "lyot:3", "--lyot-stop", "0.9")[0]
check(np.abs(single - double).max() <= 1e-6, f"single vs double: {np.abs(single - double).max():.1e}")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
