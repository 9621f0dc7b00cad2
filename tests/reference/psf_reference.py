#!/usr/bin/env python3
"""The psfsim pipeline of docs/spec.md §1 written plainly in NumPy float64: the independent
reference the tests compare every backend with. Writes the M x M intensity (normalization
'none') as raw little-endian float64 to --out."""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError:
    sys.exit(f"psf_reference.py: NumPy is not importable by {sys.executable}; "
             "install python3-numpy (Debian) or point PSFSIM_PYTHON_EXECUTABLE at a Python that has it")


def noll_to_nm(j):
    n, rest = 0, j - 1
    while rest > n:
        n += 1
        rest -= n
    m = (n % 2) + 2 * ((rest + ((n + 1) % 2)) // 2)
    return n, (m if (m == 0 or j % 2 == 0) else -m)


def zernike(j, rho, phi):
    n, m = noll_to_nm(j)
    ma = abs(m)
    radial = np.zeros_like(rho)
    for k in range((n - ma) // 2 + 1):
        c = ((-1) ** k * math.factorial(n - k)
             / (math.factorial(k) * math.factorial((n + ma) // 2 - k)
                * math.factorial((n - ma) // 2 - k)))
        radial += c * rho ** (n - 2 * k)
    if m == 0:
        return math.sqrt(n + 1) * radial
    norm = math.sqrt(2 * (n + 1))
    return norm * radial * (np.cos(ma * phi) if m > 0 else np.sin(ma * phi))


def psf(samples, padded, grid, seidel, zern, obscuration):
    if grid == "centered":
        x = (np.arange(samples) - samples / 2) * (2 / samples)
    else:
        x = np.linspace(-1, 1, samples)
    xx, yy = np.meshgrid(x, x)  # xx[r][c] = x_c, yy[r][c] = y_r
    rho = np.sqrt(xx ** 2 + yy ** 2)
    phi = np.arctan2(yy, xx)
    w = np.zeros_like(rho)
    for l, m, c in seidel:
        w += c * rho ** l * np.cos(phi) ** m
    for j, c in zern:
        w += c * zernike(j, rho, phi)
    amplitude = ((rho <= 1) & (rho >= obscuration)).astype(float)
    pupil = amplitude * np.exp(2j * np.pi * w)
    o = (padded - samples) // 2
    field = np.zeros((padded, padded), dtype=complex)
    field[o:o + samples, o:o + samples] = pupil
    e = np.fft.fftshift(np.fft.fft2(np.fft.ifftshift(field)))
    return np.abs(e) ** 2


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--samples", type=int, required=True)
    p.add_argument("--padded", type=int, required=True)
    p.add_argument("--grid", choices=["centered", "linspace"], default="centered")
    p.add_argument("--seidel", action="append", default=[], help="l,m,W")
    p.add_argument("--zernike", action="append", default=[], help="j,c")
    p.add_argument("--obscuration", type=float, default=0.0)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    seidel = [(int(l), int(m), float(w)) for l, m, w in (s.split(",") for s in a.seidel)]
    zern = [(int(j), float(c)) for j, c in (z.split(",") for z in a.zernike)]
    image = psf(a.samples, a.padded, a.grid, seidel, zern, a.obscuration)
    image.astype("<f8").tofile(a.out)


if __name__ == "__main__":
    main()
