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


def wrap_to_width(artist, width, renderer):
    """Breaks a text artist's lines at spaces so that none is wider than `width` display
    pixels (a word wider than that keeps a line of its own)."""
    lines = []
    for paragraph in artist.get_text().split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            artist.set_text(candidate)
            if line and artist.get_window_extent(renderer).width > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    artist.set_text("\n".join(lines))


def fit_titles(fig, suptitle=None):
    """Wraps each axes' title to its axes' width and the figure's title to the figure's, as
    laid out, so that no title runs past its axes or is cut off at the figure's edge; the
    layout that saving runs then makes room for the extra lines."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        if ax.get_visible() and ax.get_title():
            wrap_to_width(ax.title, ax.get_window_extent(renderer).width, renderer)
    if suptitle is not None:
        wrap_to_width(suptitle, 0.96 * fig.bbox.width, renderer)
