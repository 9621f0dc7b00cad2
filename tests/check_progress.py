#!/usr/bin/env python3
"""The progress line: drawn on stderr when it is a terminal and the run lasts over a second,
silenced by --quiet (with the summary), absent when stderr is a file. Each run gets a fresh
pseudo-terminal from Python's os.openpty, and only that run's output is read, so no check can
see another run's output. Usage: check_progress.py PSFSIM WORKDIR"""
import os
import subprocess
import sys

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
if not hasattr(os, "openpty"):
    print("SKIPPED: no pseudo-terminals on this platform")
    sys.exit(77)  # the test's SKIP_RETURN_CODE (tests/CMakeLists.txt)

# About 2 s on one core: enough chunks (of at most 4096 frames) for several updates. The FFT
# is named: auto would take the MFT at this shape, which finishes in under the bar's second.
FRAMES = 32000
args = [psfsim, "run", "--backend", "cpu", "--samples", "128", "--crop", "16", "--vary",
        f"Z4,-1,1,{FRAMES}", "--propagation", "fft", "--force", "--threads", "1", "-o",
        os.path.join(work, "p.h5")]


def on_terminal(extra):
    """Runs psfsim with stdout and stderr on a new pseudo-terminal; returns what it drew."""
    master, slave = os.openpty()
    proc = subprocess.Popen(args + extra, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every writer of the terminal has closed it
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    if proc.wait() != 0:
        print(f"FAIL: psfsim exited {proc.returncode}:\n" + b"".join(chunks).decode()[-800:])
        sys.exit(1)
    return b"".join(chunks).decode(errors="replace").replace("\r", "\n")


failures = []
shown = on_terminal([])
lines = [l for l in shown.splitlines() if "frames" in l and "PSFs/s" in l and "left" in l]
if not lines:
    failures.append("no progress line on a terminal:\n" + shown[-800:])
elif f"{FRAMES}/{FRAMES} frames" not in lines[-1]:
    failures.append(f"the last progress line is not complete: {lines[-1]!r}")
if "psfsim: wrote" not in shown or any("psfsim: wrote" in l for l in lines):
    failures.append("the summary does not start on its own line")
quiet = on_terminal(["--quiet"])
if "PSFs/s  " in quiet or "left" in quiet:
    failures.append("--quiet still draws the progress line:\n" + quiet[-400:])
if "psfsim: wrote" in quiet or "median [us]" in quiet:
    failures.append("--quiet still prints the summary (docs/cli.md):\n" + quiet[-400:])
piped = subprocess.run(args, capture_output=True, text=True, check=True)
if piped.stderr:
    failures.append(f"stderr not a terminal, yet it got: {piped.stderr[:200]!r}")

if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print("progress line: all checks passed")
