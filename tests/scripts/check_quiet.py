#!/usr/bin/env python3
"""--quiet means the same for run and sweep (docs/cli.md): nothing on stdout, no progress
line; stderr keeps errors and warnings. Without it both print their table and the file they
wrote. Usage: check_quiet.py PSFSIM WORKDIR"""
import os
import subprocess
import sys

psfsim, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def psfsim_run(*args):
    r = subprocess.run([psfsim, *args, "--force"], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, f"{' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return r


run = ["run", "--backend", "cpu", "--samples", "16", "--vary", "Z4,-0.5,0.5,3", "-o",
       os.path.join(work, "run.h5")]
sweep = ["sweep", "--sizes", "16", "--repeat", "1", "-o", os.path.join(work, "sweep.h5")]
for name, args in (("run", run), ("sweep", sweep + ["--backends", "cpu"])):
    loud = psfsim_run(*args)
    check("psfsim: wrote" in loud.stdout and "total" in loud.stdout,
          f"{name} without --quiet: no table and summary on stdout: {loud.stdout!r}")
    quiet = psfsim_run(*args, "--quiet")
    check(quiet.stdout == "", f"{name} --quiet printed on stdout: {quiet.stdout!r}")
    check(quiet.stderr == "", f"{name} --quiet printed on stderr: {quiet.stderr!r}")

# A backend the sweep was told to time and cannot is a warning, even with --quiet; the
# default list's unusable backends (cuda in a CPU build) are not.
told = psfsim_run(*sweep, "--backends", "cpu,cuda")
skipped = [l for l in told.stderr.splitlines() if l.startswith("psfsim: sweep: skipping backend")]
told_quiet = psfsim_run(*sweep, "--backends", "cpu,cuda", "--quiet")
check(told_quiet.stdout == "", f"sweep --quiet printed on stdout: {told_quiet.stdout!r}")
check(told_quiet.stderr.splitlines() == skipped,
      f"sweep --backends cpu,cuda --quiet: stderr {told_quiet.stderr!r}, want {skipped}")
default_quiet = psfsim_run(*sweep, "--quiet")
check(default_quiet.stdout == "" and default_quiet.stderr == "",
      f"sweep --quiet (default backends): {default_quiet.stdout!r} {default_quiet.stderr!r}")

# Errors stay: one line on stderr, with or without --quiet.
bad_out = os.path.join(work, "bad.h5")
for args in (["run", "--samples", "1"], ["sweep", "--sizes", "1"]):
    bad = subprocess.run([psfsim, *args, "--quiet", "-o", bad_out], capture_output=True,
                         text=True, timeout=60)
    check(bad.returncode == 2 and bad.stderr.count("psfsim: error:") == 1 and bad.stdout == "",
          f"{' '.join(args)} --quiet: exit {bad.returncode}, {bad.stdout!r} {bad.stderr!r}")

if failures:
    print("\n".join("FAIL: " + m for m in failures))
    sys.exit(1)
print("--quiet: run and sweep print nothing but errors and warnings")
