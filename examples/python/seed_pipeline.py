"""The original question's NumPy pipeline, as its author wrote it before psfsim existed: a
pupil on numpy.linspace(-1, 1, N), one wave of rho^2 cos(phi), zero-padded to M = 2N,
ifftshift, fft2, fftshift, |E|^2. The examples, the benchmark and the tests import it."""
import numpy as np


def seed_psf(samples=128, pad_factor=2, w211=1.0, dtype=np.float64, xp=np):
    """The M x M intensity, unnormalized, in float64 (complex128) or float32 (complex64).
    `xp` is the array module: NumPy, or CuPy for the same code on a GPU."""
    complex_type = xp.complex128 if dtype == np.float64 else xp.complex64
    x = xp.linspace(-1, 1, samples, dtype=dtype)
    xx, yy = xp.meshgrid(x, x)
    rho = xp.sqrt(xx**2 + yy**2)
    phi = xp.arctan2(yy, xx)
    w = w211 * rho**2 * xp.cos(phi)
    aperture = (rho <= 1).astype(dtype)
    pupil = (aperture * xp.exp(2j * np.pi * w)).astype(complex_type)
    m = int(round(pad_factor * samples))
    o = (m - samples) // 2
    # Zero padding to M x M with the pupil at offset o: the author's zeros-and-slice, written
    # as a pad so that JAX's immutable arrays take the same code.
    padded = xp.pad(pupil, ((o, m - samples - o), (o, m - samples - o)))
    field = xp.fft.fftshift(xp.fft.fft2(xp.fft.ifftshift(padded)))
    return (xp.abs(field)**2).astype(dtype)


# psfsim's options for the same PSF (docs/python.md).
SEED_OPTIONS = dict(samples=128, pad_factor=2, grid="linspace", seidel=[(2, 1, 1.0)],
                    normalize="none")
