"""The original question's NumPy pipeline, as its author wrote it before psfsim existed: a
pupil on numpy.linspace(-1, 1, N), one wave of rho^2 cos(phi), zero-padded to M = 2N,
ifftshift, fft2, fftshift, |E|^2. The examples, the benchmark and the tests import it."""
import numpy as np


def seed_psf(samples=128, pad_factor=2, w211=1.0, dtype=np.float64):
    """The M x M intensity, unnormalized, in float64 (complex128) or float32 (complex64)."""
    complex_type = np.complex128 if dtype == np.float64 else np.complex64
    x = np.linspace(-1, 1, samples, dtype=dtype)
    xx, yy = np.meshgrid(x, x)
    rho = np.sqrt(xx**2 + yy**2)
    phi = np.arctan2(yy, xx)
    w = w211 * rho**2 * np.cos(phi)
    aperture = (rho <= 1).astype(dtype)
    pupil = (aperture * np.exp(2j * np.pi * w)).astype(complex_type)
    m = int(round(pad_factor * samples))
    o = (m - samples) // 2
    padded = np.zeros((m, m), dtype=complex_type)
    padded[o:o + samples, o:o + samples] = pupil
    field = np.fft.fftshift(np.fft.fft2(np.fft.ifftshift(padded)))
    return (np.abs(field)**2).astype(dtype)


# psfsim's options for the same PSF (docs/python.md).
SEED_OPTIONS = dict(samples=128, pad_factor=2, grid="linspace", seidel=[(2, 1, 1.0)],
                    normalize="none")
