#!/usr/bin/env python3
"""`mpirun -n R psfsim run` (docs/spec.md §9, docs/scaling.md), read back with h5py.

usage: check_mpi_run.py PSFSIM MPIRUN WORKDIR equal|failures

- R = 2 and 3 ranks on a batch of 7 frames (uneven blocks), full frames and crops, single and
  double precision: /psf equals the single-process file's bit for bit, /parameters and the
  axes too, /timings has one group per rank; the file still reads when its folder is moved.
- A rank whose file cannot be made (bad input found by one rank), a file-size limit on the
  last rank only (a failure during the work; also in a --force rerun, which must keep the
  earlier output), bad input found by every rank, an output that is the --frames file, and
  SIGINT to mpirun: no output, no rank file, no partial file is left. A long output name
  (its partial names hashed) works.
Exits 77 (skipped) when psfsim was built without MPI or mpirun is missing.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

import h5py
import numpy as np

SKIP = 77


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kw)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def leftovers(folder):
    return sorted(n for n in os.listdir(folder) if not n.endswith(".csv"))


def main():
    psfsim, mpirun, work, part = sys.argv[1:5]
    info = run([psfsim, "info"]).stdout
    if "MPI: compiled in" not in info:
        print("SKIP: psfsim was built without MPI (PSFSIM_MPI=OFF or libopenmpi-dev missing)")
        return SKIP
    if not shutil.which(mpirun):
        print(f"SKIP: {mpirun} not found (install openmpi-bin)")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    mpi = [mpirun, "--oversubscribe", "--bind-to", "none"]
    failures = []

    started = time.time()

    def section(what):
        print(f"{time.time() - started:6.2f} s  {what}", flush=True)

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAIL:", what)

    # A stack of 7 OPD maps defines the batch: each rank takes its block's maps.
    stack = os.path.join(work, "opd-stack.npy")
    y, x = np.mgrid[-1:1:24j, -1:1:24j]
    np.save(stack, np.stack([40.0 * i * x * x - 25.0 * y for i in range(7)]))
    cases = [
        ("single", ["--samples", "24", "--vary", "Z4,-1,1,7", "--zernike", "11,0.05"]),
        ("double-crop", ["--samples", "32", "--precision", "double", "--crop", "24",
                         "--random", "4-10,0.1,7,3"]),  # 7 draws a frame: rank blocks start mid-pair
        # The noise is keyed by the whole batch's frame index, not a rank's own.
        ("noise", ["--samples", "24", "--crop", "16", "--vary", "Z4,-1,1,7", "--photons", "1e4",
                   "--background", "2", "--read-noise", "1.5", "--noise-seed", "11"]),
        ("opd-stack", ["--samples", "24", "--pupil-opd", stack, "--opd-units", "nm",
                       "--wavelength", "500nm"]),
    ]
    for name, options in cases if part == "equal" else []:
        section(name)
        common = [psfsim, "run", "--backend", "cpu", "--quiet"] + options
        one_dir = os.path.join(work, name, "one")
        os.makedirs(one_dir)
        one = os.path.join(one_dir, "out.h5")
        r = run(common + ["-o", one], env=env)
        check(r.returncode == 0, f"{name}: single process: {r.stderr}")
        for ranks in (2, 3):
            folder = os.path.join(work, name, f"ranks-{ranks}")
            os.makedirs(folder)
            out = os.path.join(folder, "out.h5")
            r = run(mpi + ["-n", str(ranks)] + common + ["-o", out], env=env)
            check(r.returncode == 0, f"{name}, {ranks} ranks: exit {r.returncode}: {r.stderr}")
            if r.returncode != 0:
                continue
            expected = ["out.h5"] + [f"out.h5.rank-{i}-of-{ranks}.h5" for i in range(ranks)]
            check(leftovers(folder) == sorted(expected), f"{name}, {ranks}: {leftovers(folder)}")
            # Moved elsewhere and opened from another working folder: the virtual datasets
            # name their sources relative to the file.
            moved = folder + "-moved"
            shutil.move(folder, moved)
            with h5py.File(one, "r") as a, h5py.File(os.path.join(moved, "out.h5"), "r") as b:
                check(b["psf"].is_virtual, f"{name}, {ranks}: /psf is not virtual")
                check(same_bits(a["psf"][...], b["psf"][...]),
                      f"{name}, {ranks} ranks: /psf differs from the single-process file")
                plain = [k for k in a["psf"].attrs if k != "DIMENSION_LIST"]
                check(sorted(a["psf"].attrs) == sorted(b["psf"].attrs) and
                      all(str(a["psf"].attrs[k]) == str(b["psf"].attrs[k]) for k in plain),
                      f"{name}, {ranks}: /psf attributes differ")
                check(sorted(a["parameters"]) == sorted(b["parameters"]),
                      f"{name}, {ranks}: /parameters columns differ")
                for column in a["parameters"]:
                    check(same_bits(a["parameters"][column][...], b["parameters"][column][...]),
                          f"{name}, {ranks}: /parameters/{column} differs")
                check(b["parameters"].attrs["frames"] == 7, f"{name}: /parameters@frames")
                for axis in ("frame", "y", "x"):
                    check(same_bits(a[axis][...], b[axis][...]), f"{name}: /{axis} differs")
                check([d.label for d in b["psf"].dims] == ["frame", "y", "x"],
                      f"{name}: /psf's axis labels")
                check(same_bits(b["psf"].dims[0][0][...], np.arange(7)),
                      f"{name}: /psf's frame scale")
                check(b["timings"].attrs["ranks"] == ranks, f"{name}: /timings@ranks")
                for i in range(1, ranks):
                    group = b["timings"][f"rank_{i}"]
                    check("total" in group and group.attrs["threads"] >= 1,
                          f"{name}: /timings/rank_{i}")
                def config(f):  # the effective configuration but the output's name
                    return [l for l in f.attrs["config"].splitlines() if not l.startswith("output")]
                check(config(a) == config(b), f"{name}: root config differs")

    # Failures leave nothing: no output, no rank file, no partial file.
    base = [psfsim, "run", "--backend", "cpu", "--quiet", "--samples", "24"]

    def nothing_left(label, folder, r, code):
        check(r.returncode == code, f"{label}: exit {r.returncode}, expected {code}: {r.stderr}")
        check("psfsim: error:" in r.stderr, f"{label}: no psfsim error line: {r.stderr}")
        check(leftovers(folder) == sorted(extra.get(folder, [])),
              f"{label}: left {leftovers(folder)}")

    extra = {}
    if part != "failures":
        # Reruns with --force: another rank count, then one process, leave no stale rank files.
        section("reruns")
        folder = os.path.join(work, "reruns")
        os.makedirs(folder)
        out = os.path.join(folder, "out.h5")
        small = [psfsim, "run", "--backend", "cpu", "--quiet", "--force", "--samples", "16",
                 "--vary", "Z4,-1,1,5", "-o", out]
        for ranks in (3, 2):
            r = run(mpi + ["-n", str(ranks)] + small, env=env)
            check(r.returncode == 0, f"rerun on {ranks} ranks: {r.stderr}")
            expected = ["out.h5"] + [f"out.h5.rank-{i}-of-{ranks}.h5" for i in range(ranks)]
            check(leftovers(folder) == sorted(expected), f"rerun on {ranks}: {leftovers(folder)}")
        r = run(small, env=env)
        check(r.returncode == 0 and leftovers(folder) == ["out.h5"],
              f"one process over an mpirun output: {leftovers(folder)} {r.stderr}")
        return summary(failures)
    section("a rank file blocked")
    # Rank 1 alone cannot create its file: a folder has its name. Found before any work.
    folder = os.path.join(work, "rank-file-blocked")
    os.makedirs(os.path.join(folder, "out.h5.rank-1-of-2.h5"))
    extra[folder] = ["out.h5.rank-1-of-2.h5"]
    r = run(mpi + ["-n", "2"] + base + ["--vary", "Z4,-1,1,7", "-o", os.path.join(folder, "out.h5")], env=env)
    nothing_left("a rank's file blocked", folder, r, 2)
    check(r.stderr.count("psfsim: error:") == 1, f"one error line expected: {r.stderr}")

    section("file size limit")
    # A file size limit on rank 2 alone (bash's ulimit -f in KiB, set inside that rank):
    # it fails while it writes (EFBIG, exit 3); ranks 0 and 1 finish their blocks and are
    # stopped while they wait. Under the limit Open MPI's shared-memory transport could not
    # size its segment, so TCP carries the messages.
    folder = os.path.join(work, "file-too-large")
    os.makedirs(folder)
    limit_kib = 3 * 256 * 256 * 4 // 2 // 1024  # 1.5 frames: rank 2 writes 2 of the 7
    big = ["run", "--backend", "cpu", "--quiet", "--samples", "128", "--vary", "Z4,-1,1,7"]

    def limited(argv, rank):
        script = (f'[ "${{OMPI_COMM_WORLD_RANK:-{rank}}}" = {rank} ] && ulimit -f {limit_kib}; '
                  'exec "$@"')
        return ["bash", "-c", script, "bash"] + argv

    single = run(limited([psfsim] + big + ["-o", os.path.join(folder, "x.h5")], 0), env=env)
    check(single.returncode == 3, f"the file size limit did not fail one process: {single.stderr}")
    tcp = mpi + ["--mca", "btl", "self,tcp", "-n", "3"]
    r = run(tcp + limited([psfsim] + big + ["-o", os.path.join(folder, "out.h5")], 2), env=env)
    nothing_left("rank 2 cannot write its file", folder, r, 3)
    check("rank-2-of-3" in r.stderr, f"the error does not name rank 2's file: {r.stderr}")
    # Ranks 0 and 1 remove their finished files when rank 2 tells them, before mpirun's
    # SIGTERM (and the SIGKILL a second later, which a loaded host can let come first).
    check("the partial output file was removed" not in r.stderr,
          f"a rank's file was left for the stop signal to remove: {r.stderr}")
    # The same failure in a rerun with --force leaves the earlier output and its rank files.
    out = os.path.join(folder, "out.h5")
    r = run(mpi + ["-n", "3", psfsim] + big + ["-o", out], env=env)
    check(r.returncode == 0, f"the run to keep: {r.stderr}")
    with h5py.File(out, "r") as f:
        before = f["psf"][...]
    r = run(tcp + limited([psfsim] + big + ["--force", "-o", out], 2), env=env)
    check(r.returncode == 3, f"the failing rerun: exit {r.returncode}: {r.stderr}")
    expected = ["out.h5"] + [f"out.h5.rank-{i}-of-3.h5" for i in range(3)]
    check(leftovers(folder) == expected, f"a failed rerun left {leftovers(folder)}")
    with h5py.File(out, "r") as f:
        check(same_bits(f["psf"][...], before), "a failed rerun changed the earlier output")

    section("bad input")
    # Bad input that every rank finds: one message, exit 2.
    folder = os.path.join(work, "bad-input")
    os.makedirs(folder)
    r = run(mpi + ["-n", "2"] + base + ["--crop", "99", "-o", os.path.join(folder, "out.h5")], env=env)
    nothing_left("bad input on every rank", folder, r, 2)
    check(r.stderr.count("psfsim: error:") == 1, f"one error line expected: {r.stderr}")

    section("output files")
    # An output that is an input is refused, --force or not (docs/cli.md, "Output files").
    folder = os.path.join(work, "output-files")
    os.makedirs(folder)
    frames = os.path.join(folder, "frames.csv")
    with open(frames, "w") as f:
        f.write("Z4\n0.1\n0.2\n")
    r = run(mpi + ["-n", "2"] + base + ["--frames", frames, "--force", "-o", frames], env=env)
    nothing_left("the output is the --frames file", folder, r, 2)
    check("is the same file as --frames" in r.stderr and r.stderr.count("psfsim: error:") == 1,
          f"one line naming --frames expected: {r.stderr}")
    with open(frames, "rb") as f:
        check(f.read() == b"Z4\n0.1\n0.2\n", "the --frames file was replaced")
    # A long name: the job's partial names, and the partials of those, are cut with a hash.
    out = os.path.join(folder, "n" * 230 + ".h5")
    r = run(mpi + ["-n", "2"] + base + ["--vary", "Z4,-1,1,4", "-o", out], env=env)
    check(r.returncode == 0, f"a 233-byte output name: {r.stderr}")
    names = [os.path.basename(out)] + [os.path.basename(out) + f".rank-{i}-of-2.h5"
                                       for i in range(2)]
    check(leftovers(folder) == sorted(names), f"a long name left {leftovers(folder)}")

    section("SIGINT")
    # SIGINT to mpirun while the ranks compute: every rank's files go.
    folder = os.path.join(work, "interrupted")
    os.makedirs(folder)
    long_run = [psfsim, "run", "--backend", "cpu", "--quiet", "--samples", "128", "--crop", "64",
                "--fft-effort", "estimate", "--vary", "Z4,-1,1,40000"]
    p = subprocess.Popen(mpi + ["-n", "2"] + long_run + ["-o", os.path.join(folder, "out.h5")],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while time.time() < deadline and not any(".partial-" in n for n in os.listdir(folder)):
        time.sleep(0.05)
    check(any(".partial-" in n for n in os.listdir(folder)), "SIGINT: no rank started writing")
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    check(p.returncode != 0, "SIGINT: mpirun exited 0")
    check("stopped by SIGTERM" in err, f"SIGINT: the ranks were not stopped by it: {err}")
    time.sleep(0.5)  # the ranks' own exits
    check(leftovers(folder) == [], f"SIGINT: left {leftovers(folder)}: {err}")

    section("end")
    return summary(failures)


def summary(failures):
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("mpirun checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
