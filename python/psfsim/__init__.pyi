# Type stubs of the package psfsim (docs/python.md).
import os
from typing import Any, Literal, Mapping, Sequence, overload

import numpy as np
import numpy.typing as npt
import xarray

__version__: str
# The commit of this build, as `psfsim --version` and the files' git_commit record it.
git_commit: str

class InputError(ValueError):
    """What `psfsim run` exits 2 on; the message names the keyword."""

class RuntimeFailure(RuntimeError):
    """What `psfsim run` exits 3 on: I/O, device, memory."""

class FrameArray:
    """Frames psfsim allocated, for DLPack consumers (no copy)."""
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def ndim(self) -> int: ...
    @property
    def device(self) -> Literal["cpu", "cuda"]: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    def __dlpack__(self, stream: int | None = None) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    def numpy(self) -> npt.NDArray[np.floating[Any]]: ...
    def __array__(self, dtype: Any = None) -> npt.NDArray[Any]: ...
    def __len__(self) -> int: ...

Terms = str | Sequence[str] | Sequence[Sequence[float]] | Mapping[int, float] | Sequence[float]
Frames = npt.NDArray[np.floating[Any]] | FrameArray
Metrics = dict[str, Any]
Result = Frames | tuple[Frames, Metrics] | Metrics

class Simulator:
    def __init__(
        self,
        *,
        config: str | os.PathLike[str] | None = None,
        result: Literal["numpy", "device"] | None = None,
        backend: str = ...,
        precision: Literal["single", "double"] = ...,
        samples: int = ...,
        pad_factor: float = ...,
        padded_size: int = ...,
        crop: int = ...,
        zernike: Terms = ...,
        seidel: Terms = ...,
        vary: str = ...,
        random: str = ...,
        frames: str | os.PathLike[str] = ...,
        wavelength: str | Any = ...,
        metrics: str | Sequence[str] = ...,
        ee_radii: str | Sequence[float] = ...,
        **options: Any,
    ) -> None: ...
    @property
    def frame_shape(self) -> tuple[int, int]: ...
    @property
    def dtype(self) -> str: ...
    @property
    def backend(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def metrics(self) -> list[str]: ...
    @property
    def ee_radii(self) -> list[float]: ...
    @property
    def mtf_frequencies(self) -> list[float]: ...
    def __call__(
        self,
        *,
        out: Any = None,
        result: Literal["numpy", "device"] | None = None,
        zernike: Terms | None = None,
        seidel: Terms | None = None,
        vary: str | None = None,
        random: str | None = None,
        frames: str | os.PathLike[str] | None = None,
        field: str | Sequence[float | str | Any] | None = None,
        field_grid: str | Sequence[float | int | str] | None = None,
    ) -> Result: ...
    def batch(
        self,
        coefficients: npt.ArrayLike,
        terms: Sequence[str] | str,
        *,
        out: Any = None,
        result: Literal["numpy", "device"] | None = None,
    ) -> Result: ...

def psf(*, out: Any = None, result: Literal["numpy", "device"] | None = None,
        config: str | os.PathLike[str] | None = None, **options: Any) -> Result: ...
def run(output: str | os.PathLike[str] | None = None,
        config: str | os.PathLike[str] | None = None, *, progress: bool = False,
        **options: Any) -> str: ...
def open(path: str | os.PathLike[str]) -> xarray.Dataset: ...
def backends() -> list[str]: ...
def usable_backends() -> list[str]: ...
def keywords() -> dict[str, str]: ...
