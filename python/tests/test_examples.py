"""The examples of examples/python run as their docstrings say (the GPU one: test_gpu.py)."""
import os
import subprocess
import sys

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run_example(name, *arguments, cwd=None):
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *arguments],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def test_original_question():
    done = run_example("original_question.py", "--number", "3")
    assert done.returncode == 0, done.stderr
    error = float(done.stdout.split("relative L2 error ")[1].split()[0])
    assert error < 1e-10
    assert "psfsim.Simulator, cpu, float32" in done.stdout


def test_plot_psf_and_ee(tmp_path):
    figure = tmp_path / "figure.png"
    done = run_example("plot_psf_and_ee.py", "-o", str(figure), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(os.listdir(tmp_path)) == ["figure.png"]


def test_plot_field_grid(tmp_path):
    figure = tmp_path / "figure.png"
    done = run_example("plot_field_grid.py", "-o", str(figure), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(os.listdir(tmp_path)) == ["figure.png"]
    # "strehl from 0.838 (corner) to 1.000 (centre)": no aberration on axis, coma and
    # astigmatism growing with field towards the corners.
    words = done.stdout.split("strehl from ")[1].split()
    assert words[1] == "(corner)" and words[4] == "(centre)", done.stdout
    corner, centre = float(words[0]), float(words[3])
    assert abs(centre - 1) < 1e-3
    assert 0.7 < corner < 0.95
