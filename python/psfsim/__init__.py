"""psfsim: optical point-spread functions, in-process.

The same engine as the ``psfsim`` command line, called without a process or a file::

    import psfsim
    frame = psfsim.psf(samples=128, zernike={4: 0.1})          # (K, K) numpy.ndarray
    sim = psfsim.Simulator(samples=128, crop=64, metrics="strehl")
    frames, metrics = sim.batch(coefficients, ["Z4", "Z11"])  # (B, K, K), {"strehl": (B,)}

Keywords are the long options of ``psfsim run`` with ``_`` for ``-`` (``pad_factor``,
``ee_radii``), and take what the options take; ``help(psfsim.psf)`` lists them. Errors are
``psfsim.InputError`` (a ValueError: what the CLI exits 2 on) and ``psfsim.RuntimeFailure``
(a RuntimeError: exit 3), with the CLI's messages. docs/python.md is the guide.
"""
from __future__ import annotations

import os
from typing import Any

from . import _keywords, _psfsim
from ._dataset import open  # noqa: A004 - psfsim.open
from ._psfsim import FrameArray, InputError, RuntimeFailure

__version__ = _psfsim.__version__
# The commit this build was made from, as `psfsim --version` and every file record it.
git_commit = _psfsim.git_commit
__all__ = ["psf", "Simulator", "run", "open", "backends", "usable_backends", "keywords",
           "InputError",
           "RuntimeFailure", "FrameArray", "__version__", "git_commit"]

_PHASE = ("zernike", "seidel", "vary", "random", "frames", "field", "field_grid")
# DLPack's device types of the memory psfsim hands out, by the names PyTorch and CuPy use.
_DEVICE_KINDS = {1: "cpu", 2: "cuda"}


def _device_kind(frames: FrameArray) -> str:
    """'cpu' or 'cuda': where the frames are."""
    return _DEVICE_KINDS.get(frames.__dlpack_device__()[0], "other")


def _frame_array_repr(frames: FrameArray) -> str:
    return (f"psfsim.FrameArray(shape={frames.shape}, dtype={frames.dtype}, "
            f"device={_device_kind(frames)})")


FrameArray.device = property(_device_kind, doc=_device_kind.__doc__)
FrameArray.__repr__ = _frame_array_repr
_RESULTS = ("numpy", "device")


def backends() -> list[str]:
    """The backends this build holds, in the order ``backend="auto"`` tries them."""
    return list(_psfsim.backends())


def usable_backends() -> list[str]:
    """The backends of this build that can run on this machine (a cuda backend needs a
    device), in the order ``backend="auto"`` tries them."""
    return [b for b in _psfsim.backends() if not _psfsim.unusable_reason(b)]


def keywords() -> dict[str, str]:
    """Every keyword with its help, as ``psfsim run --help`` words it."""
    return {k: row["help"] for k, row in _keywords.OPTIONS.items()}


def _split(options: dict[str, Any], where: str) -> tuple[list[str], str]:
    config = options.pop("config", None)
    for keyword in options:
        if keyword in _keywords.FILE_KEYWORDS:
            raise InputError(f"{keyword}: {where} returns arrays; psfsim.run(output=...) writes "
                             "files")
    return _keywords.words(options), "" if config is None else os.fspath(config)


def _metrics_dict(values: Any, columns: list[tuple[str, int, int, bool]], batch: bool) -> dict:
    out = {}
    for name, offset, width, matrix in columns:
        block = values[:, offset:offset + width] if matrix else values[:, offset]
        out[name] = block.copy() if batch else (block[0].copy() if matrix else float(block[0]))
    return out


class Simulator:
    """A plan made once, for many calls: FFTW's plans or the GPU's context and cuFFT/cuBLAS
    handles, the pupil and its maps, the metrics' tables.

    ``Simulator(**options)`` takes every keyword of :func:`psf` (``result`` too); calling it
    computes frames with those options. The phase options (``zernike``, ``seidel``,
    ``vary``, ``random``, ``frames``, ``field``, ``field_grid``) may change from call to call:
    given to a call, they
    replace all of the Simulator's own phase options for that call. Every other option is
    fixed by the plan.

    Each call returns the frames, or ``(frames, metrics)`` when ``metrics`` is set, or the
    metrics alone with ``store="metrics"``. One frame is a (K, K) array, a batch (B, K, K);
    metrics are a dict of arrays, (B,) per scalar metric and (B, R) for ``ee`` and ``mtf``
    (a lone frame's are floats and (R,) arrays). ``out=`` writes the frames into the
    caller's array, which must have their shape and dtype and be C-contiguous: NumPy on the
    cpu backend. ``result="device"`` returns a :class:`FrameArray` for DLPack consumers.

    The GIL is released while the engine computes, and Ctrl-C stops a call between two
    backend calls (a KeyboardInterrupt). Calls from several threads on one Simulator are
    safe and run one at a time; separate Simulators run in parallel. Photon noise continues
    from call to call: frame f of the Simulator's life draws noise f of ``noise_seed``.
    """

    def __init__(self, **options: Any) -> None:
        self._result = options.pop("result", None) or "numpy"
        if self._result not in _RESULTS:
            raise InputError(f"result: '{self._result}' is not one of numpy, device")
        arguments, config = _split(dict(options), "psfsim.Simulator")
        self._engine = _psfsim.Simulator(arguments, config, self._result == "device")
        self._columns = list(self._engine.metric_columns)
        self._own = self._engine.own  # the call without phase options, looked up once

    @property
    def frame_shape(self) -> tuple[int, int]:
        """(K, K): one frame's shape."""
        k = self._engine.frame_edge
        return (k, k)

    @property
    def dtype(self) -> str:
        """'float32' or 'float64', as ``precision`` says."""
        return "float32" if self._engine.precision == "single" else "float64"

    @property
    def backend(self) -> str:
        """The backend computing: 'cpu' or 'cuda' (``backend="auto"`` resolved)."""
        return self._engine.backend

    @property
    def device(self) -> str:
        """The CPU model or GPU name the backend computes on."""
        return self._engine.device

    @property
    def metrics(self) -> list[str]:
        """The names of the metrics each call returns, in their order."""
        return [c[0] for c in self._columns]

    @property
    def ee_radii(self) -> list[float]:
        """The encircled-energy radii (lambda/D) of the ``ee`` metric's columns."""
        return list(self._engine.ee_radii)

    @property
    def mtf_frequencies(self) -> list[float]:
        """The MTF frequencies (units of D/lambda) of the ``mtf`` metric's columns."""
        return list(self._engine.mtf_frequencies)

    def _shape(self, result: tuple) -> Any:
        frames, values, batch = result
        if not self._columns:
            return frames
        metrics = _metrics_dict(values, self._columns, batch)
        return metrics if frames is None else (frames, metrics)

    def __call__(self, *, out: Any = None, result: str | None = None, **phase: Any) -> Any:
        """Frames with the Simulator's options, or with these phase options in place of its own.

        Keywords: ``zernike``, ``seidel``, ``vary``, ``random``, ``frames``, ``field``,
        ``field_grid`` (as for :func:`psf`), ``out`` (an array to fill) and ``result`` ("numpy" or "device").
        """
        if not phase:
            frames = self._own(out, result or self._result)
            return frames[0] if not self._columns else self._shape(frames)
        result = result or self._result
        for keyword in phase:
            if keyword not in _PHASE:
                if keyword in _keywords.OPTIONS:
                    raise InputError(f"{keyword}: fixed by the Simulator's plan; make a "
                                     "Simulator with it (only zernike, seidel, vary, random, "
                                     "frames, field and field_grid change between calls)")
                raise _keywords.unknown(keyword)
        given = {k: v for k, v in phase.items() if v is not None}
        if not given:
            return self._shape(self._engine.own(out, result))
        if not ({"vary", "random", "frames", "field", "field_grid"} & given.keys()):
            return self._shape(self._engine.terms(_keywords.terms("zernike", given.get("zernike")),
                                                  _keywords.terms("seidel", given.get("seidel")),
                                                  out, result))
        return self._shape(self._engine.phase(_keywords.words(given), out, result))

    def batch(self, coefficients: Any, terms: list[str], *, out: Any = None,
              result: str | None = None) -> Any:
        """A batch with one frame per row of ``coefficients``, a (B, J) array of the J
        ``terms`` (``["Z4", "Z11", "S2_1"]``, named as --frames' CSV header names them), each
        row set over the Simulator's own zernike and seidel terms, in its
        ``aberration_units``. Returns (B, K, K) frames (and metrics), as a call does.
        """
        import numpy as np

        values = np.asarray(coefficients, dtype=np.float64)
        if values.ndim == 1 and len(terms) == 1:
            values = values[:, None]
        names = [terms] if isinstance(terms, str) else list(terms)
        return self._shape(self._engine.table(values, names, out, result or self._result))

    def __repr__(self) -> str:
        return (f"psfsim.Simulator(frame_shape={self.frame_shape}, dtype={self.dtype}, "
                f"backend={self.backend!r}, metrics={self.metrics})")


def psf(**options: Any) -> Any:
    """Compute PSFs in-process, as ``psfsim run`` would without a file.

    Returns one frame as a (K, K) numpy.ndarray, or a batch (``vary``, ``random``,
    ``frames``) as (B, K, K), float32 or float64 as ``precision`` says; with ``metrics``,
    ``(frames, metrics)``, and with ``store="metrics"`` the metrics alone (see
    :class:`Simulator`). ``config="file.toml"`` reads a config file's [run] table, which
    the keywords override. ``out=`` and ``result=`` are as for a Simulator's call.

    Raises InputError for what ``psfsim run`` refuses (the message names the keyword) and
    RuntimeFailure for what fails at run time.

    Keywords (``psfsim run``'s options; ``output``, ``force``, ``compression`` and
    ``repeat`` are psfsim.run's only):
    """
    out = options.pop("out", None)
    result = options.pop("result", None)
    return Simulator(**options)(out=out, result=result)


def run(output: str | os.PathLike[str] | None = None, config: str | os.PathLike[str] | None = None,
        *, progress: bool = False, **options: Any) -> str:
    """Write the file ``psfsim run`` writes for these options, and return its path.

    The same atomicity and errors as the CLI: the file appears whole or not at all, an
    existing file is replaced only with ``force=True``, and Ctrl-C (KeyboardInterrupt)
    leaves nothing behind. ``progress=True`` draws the CLI's progress line on a terminal.
    """
    if output is not None:
        options["output"] = os.fspath(output)
    arguments = _keywords.words(options)
    return _psfsim.write_run(arguments, "" if config is None else os.fspath(config), progress)


def _keyword_lines() -> str:
    lines = []
    for keyword, row in _keywords.OPTIONS.items():
        default = f" (default {row['default']})" if row["default"] else ""
        lines.append(f"    {keyword}: {row['help'].splitlines()[0] if row['help'] else ''}{default}")
    return "\n".join(lines)


psf.__doc__ = (psf.__doc__ or "") + "\n" + _keyword_lines() + "\n"
