"""Shared fixtures of the Python module's tests (run by CTest as python_module; by hand:
PYTHONPATH=build/python PSFSIM_EXECUTABLE=build/apps/psfsim /usr/bin/python3 -m pytest -rs
python/tests)."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))

psfsim = pytest.importorskip("psfsim", reason="the module psfsim is not importable: build it "
                             "(PSFSIM_PYTHON) and put build/python on PYTHONPATH")


@pytest.fixture(scope="session")
def executable():
    path = os.environ.get("PSFSIM_EXECUTABLE")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("PSFSIM_EXECUTABLE does not name the psfsim program")
    return path


@pytest.fixture
def cli(executable):
    """Runs psfsim with these arguments; returns the CompletedProcess."""
    def run(*arguments):
        return subprocess.run([executable, *arguments], capture_output=True, text=True)
    return run


requires_gpu = pytest.mark.skipif("cuda" not in psfsim.usable_backends(),
                                  reason="no usable CUDA device here")


def in_keywords(cli_stderr):
    """The CLI's error line as the module words it: no prefix, options named as keywords."""
    import re
    text = cli_stderr.strip().removeprefix("psfsim: error: ")
    names = {row["flag"]: row["keyword"] for row in psfsim._keywords.OPTIONS.values()}
    return re.sub(r"(?<![\w-])--[a-z][a-z0-9-]*", lambda m: names.get(m.group(0), m.group(0)), text)
