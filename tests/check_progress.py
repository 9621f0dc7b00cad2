#!/usr/bin/env python3
"""The progress line: drawn on stderr when it is a terminal and the run lasts over a second,
silenced by --quiet, absent when stderr is a file. A pseudo-terminal comes from util-linux's
`script`. Usage: check_progress.py PSFSIM WORKDIR"""
import os
import shutil
import subprocess
import sys

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
if shutil.which("script") is None:
    print("SKIPPED: util-linux 'script' not found, no pseudo-terminal to test with")
    sys.exit(0)

# About 2 s on one core: enough chunks (of at most 4096 frames) for several updates.
args = [psfsim, "run", "--backend", "cpu", "--samples", "128", "--crop", "16", "--vary",
        "Z4,-1,1,16000", "--force", "--threads", "1", "-o", os.path.join(work, "p.h5")]


def on_terminal(extra):
    log = os.path.join(work, "typescript")
    command = " ".join(args + extra)
    subprocess.run(["script", "-qec", command, log], check=True, stdout=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL)
    with open(log, errors="replace") as f:
        return f.read().replace("\r", "\n")


failures = []
shown = on_terminal([])
lines = [l for l in shown.splitlines() if "frames" in l and "PSFs/s" in l and "left" in l]
if not lines:
    failures.append("no progress line on a terminal:\n" + shown[-800:])
elif "16000/16000 frames" not in lines[-1]:
    failures.append(f"the last progress line is not complete: {lines[-1]!r}")
if "psfsim: wrote" not in shown or any("psfsim: wrote" in l for l in lines):
    failures.append("the summary does not start on its own line")
quiet = on_terminal(["--quiet"])
if "PSFs/s  " in quiet:
    failures.append("--quiet still draws the progress line")
piped = subprocess.run(args, capture_output=True, text=True, check=True)
if piped.stderr:
    failures.append(f"stderr not a terminal, yet it got: {piped.stderr[:200]!r}")

if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print("progress line: all checks passed")
