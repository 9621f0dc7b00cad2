"""What the plot scripts share: one-line errors (exit 2), the dependency check, opening a
psfsim HDF5 file and finding its dataset, and decoding HDF5 strings."""
import os
import sys

PROG = os.path.basename(sys.argv[0])


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import h5py
    import matplotlib
    import numpy  # noqa: F401  (checked here so that the message names it)
except ImportError as e:
    fail(f"{e.name} is not importable by {sys.executable}; on Debian run the script with "
         "/usr/bin/python3 (python3-numpy, python3-h5py, python3-matplotlib)")

matplotlib.use("Agg")  # files only: no display is needed or assumed


def open_dataset_file(path, dataset, wrong_kind_hint, kind=h5py.Dataset):
    """The open file, after checking that it exists, is HDF5 and holds /`dataset` (a
    dataset, or an h5py.Group when `kind` says so)."""
    if not os.path.exists(path):
        fail(f"{path}: no such file")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        fail(f"{path}: not a readable HDF5 file ({e})")
    if dataset not in f or not isinstance(f[dataset], kind):
        f.close()
        noun = "group" if kind is h5py.Group else "dataset"
        fail(f"{path}: no /{dataset} {noun} ({wrong_kind_hint})")
    return f


def text(value):
    """An HDF5 string attribute or field as str (bytes and NUL padding removed)."""
    if isinstance(value, bytes):
        value = value.decode(errors="replace")
    return str(value).rstrip("\x00").strip()
