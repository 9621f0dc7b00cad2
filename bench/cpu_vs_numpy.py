#!/usr/bin/env python3
"""psfsim's CPU backend against NumPy and a bare FFTW transform, measured side by side in one
run on this machine (docs/spec.md §5, development-machine targets).

For each N (M = 2N, float32 unless stated, one wave of rho^2 cos(phi) on a circular pupil):
  - NumPy running the original script's pipeline (linspace meshgrid, rho, phi, W, aperture,
    exp(2 pi i W), zero padding, ifftshift, fft2, fftshift, abs^2) in float64 and in
    float32/complex64, one core, median of repeated runs;
  - psfsim run --backend cpu --precision single --seidel 2,1,1, median of /timings/total
    (in-process: parameters to intensities in host memory, no planning, no file write),
    with 1 thread and with every core;
  - the bare FFTW M x M in-place C2C forward transform (build/bench/psfsim_fftw_c2c_bench)
    with the same precision and thread counts.

  /usr/bin/python3 bench/cpu_vs_numpy.py                      # the table on stdout
  /usr/bin/python3 bench/cpu_vs_numpy.py -o cpu_vs_numpy.md   # and written to a file
  /usr/bin/python3 bench/cpu_vs_numpy.py --sizes 128 --quick
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = os.path.basename(sys.argv[0])
DEFAULT_SIZES = (64, 128, 256, 512, 1024, 2048)
# OpenBLAS tuning variables set on this machine slow NumPy down; the NumPy worker runs in a
# child process without them (OpenBLAS reads them when it is loaded, so unsetting them in an
# already running interpreter would be too late).
NUMPY_ENV_DROP = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
# Page faults are unusually slow on some VMs, the development machine's among them
# (bench/results/2026-11-29-cpu-2-core.md), and NumPy's whole-array temporaries fault in fresh
# pages whenever glibc returns freed memory to the system and maps it again. The "warm heap"
# settings keep freed memory in the process (arrays up to 32 MiB, glibc's largest mmap
# threshold), so that NumPy runs about as it would on an ordinary machine (the stricter
# comparison for psfsim); one extra column keeps glibc's defaults, which is what a user of this
# VM sees.
WARM_HEAP_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 40),
                 "MALLOC_TOP_PAD_": str(64 << 20),
                 # larger arrays are still mapped afresh; transparent huge pages cut their faults
                 "GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


def repeats_for(n):
    """(NumPy repeats, psfsim repeats): fewer for large N, so that the default sizes finish in
    a few minutes on 2 cores; psfsim is cheap enough for more."""
    if n <= 128:
        return 30, 200
    if n <= 256:
        return 15, 100
    if n <= 512:
        return 7, 40
    if n <= 1024:
        return 5, 15
    return 3, 7


# ---------------------------------------------------------------------------- NumPy worker
def numpy_worker(n, m, repeats, both):
    """Runs in a child process; prints {"complex64": s, "float64": s (if both), ...} as JSON."""
    import timeit

    import numpy as np

    def pipeline(real, cplx):
        # The original script, step by step, each a whole-array pass.
        x = np.linspace(-1, 1, n, dtype=real)
        xx, yy = np.meshgrid(x, x)
        rho = np.sqrt(xx ** 2 + yy ** 2)
        phi = np.arctan2(yy, xx)
        w = rho ** 2 * np.cos(phi)                       # one wave of rho^2 cos(phi)
        aperture = rho <= 1
        pupil = aperture * np.exp(1j * 2 * np.pi * w)    # complex64 from float32 inputs
        padded = np.zeros((m, m), dtype=cplx)
        o = (m - n) // 2
        padded[o:o + n, o:o + n] = pupil
        e = np.fft.fftshift(np.fft.fft2(np.fft.ifftshift(padded)))
        return np.abs(e) ** 2

    out = {"numpy": np.__version__}
    variants = [("complex64", np.float32, np.complex64)]
    if both:
        variants.append(("float64", np.float64, np.complex128))
    for label, real, cplx in variants:
        pipeline(real, cplx)  # warm-up: page faults, FFT twiddle cache
        times = timeit.repeat(lambda: pipeline(real, cplx), number=1, repeat=repeats)
        out[label] = statistics.median(times)
    # NumPy < 2 computes fft2 in complex128 whatever the input; say so in the report.
    out["fft_dtype_for_complex64"] = str(np.fft.fft2(np.zeros((4, 4), np.complex64)).dtype)
    print(json.dumps(out))


def time_numpy(n, m, repeats, warm_heap, both=True):
    env = {k: v for k, v in os.environ.items()
           if k not in NUMPY_ENV_DROP and not k.startswith("MALLOC_")}
    if warm_heap:
        env.update(WARM_HEAP_ENV)
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--numpy-worker",
                        str(n), str(m), str(repeats), str(int(both))],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"the NumPy timing failed (is NumPy importable by {sys.executable}? run this "
             f"script with /usr/bin/python3):\n{r.stderr.strip()}")
    return json.loads(r.stdout)


# ---------------------------------------------------------------------------------- psfsim
def time_psfsim(psfsim, n, repeats, threads, workdir, effort):
    import h5py
    import numpy as np

    out = os.path.join(workdir, f"psfsim_{n}_{threads}.h5")
    cmd = [psfsim, "run", "--backend", "cpu", "--precision", "single", "--repeat", str(repeats),
           "--seidel", "2,1,1", "--samples", str(n), "--threads", str(threads),
           "--fft-effort", effort,
           "--wisdom", os.path.join(workdir, f"psfsim-{effort}.wisdom"),  # planning paid once
           "-o", out, "--force", "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {r.returncode}:\n{r.stderr.strip()}")
    with h5py.File(out, "r") as f:
        total = float(np.median(f["timings/total"][()]))
        used = int(f["timings"].attrs.get("threads", threads))
    os.remove(out)  # up to 64 MiB each at N = 2048
    return total, used


# ------------------------------------------------------------------------------------ FFTW
def time_fftw(bench, m, threads, workdir, effort):
    cmd = [bench, f"--threads={threads}", f"--effort={effort}", f"--benchmark_filter=^c2c_float/{m}/",
           "--benchmark_format=json", "--benchmark_repetitions=5",
           "--benchmark_report_aggregates_only=true", "--benchmark_min_time=0.2",
           f"--wisdom={os.path.join(workdir, f'fftw_bench-{effort}.wisdom')}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {r.returncode}:\n{r.stderr.strip()}")
    data = json.loads(r.stdout)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            return b["real_time"] * scale[b["time_unit"]], data["context"]
    fail(f"no median in the output of {' '.join(cmd)}")


# ---------------------------------------------------------------------------------- report
def fmt_time(t):
    if t is None:
        return "n/a"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} µs"


def ratio(a, b, digits=1):
    return "n/a" if a is None or b is None else f"{a / b:.{digits}f}"


def busy_cpu_seconds():
    """CPU seconds spent by the whole machine (all cores) since boot, or None off Linux."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def other_load(start_busy, start_own, start_wall):
    """CPU used by other processes since the start, in cores: the load average would
    count this VM's idle kernel threads and say 1 on an idle machine."""
    busy = busy_cpu_seconds()
    if busy is None or start_busy is None:
        return None
    wall = max(time.monotonic() - start_wall, 1e-3)
    return max(0.0, (busy - start_busy) - (own_cpu_seconds() - start_own)) / wall


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    p = argparse.ArgumentParser(
        description="Time psfsim's CPU backend against NumPy (the original script's pipeline) "
                    "and a bare FFTW C2C transform, side by side, and print a markdown table.",
        epilog="Run with /usr/bin/python3 (Debian's, with NumPy and h5py) on an otherwise idle "
               "machine; build first: cmake --build build -j2 (with -DPSFSIM_BUILD_BENCH=ON).")
    p.add_argument("-o", "--output", metavar="FILE.md",
                   help="also write the table to this file (default: stdout only)")
    p.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)), metavar="N,...",
                   help="pupil sizes N, M = 2N (default %(default)s)")
    p.add_argument("--psfsim", default=os.environ.get("PSFSIM",
                                                      os.path.join(ROOT, "build/apps/psfsim")),
                   help="psfsim binary (default $PSFSIM or build/apps/psfsim)")
    p.add_argument("--fftw-bench", default=os.path.join(ROOT, "build/bench/psfsim_fftw_c2c_bench"),
                   help="the FFTW benchmark binary (default build/bench/psfsim_fftw_c2c_bench)")
    p.add_argument("--no-fftw", action="store_true",
                   help="skip the bare FFTW columns (when the benchmark is not built)")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1, metavar="T",
                   help="'all cores' thread count for psfsim and FFTW (default %(default)s)")
    p.add_argument("--fft-effort", choices=["measure", "patient"], default="measure",
                   help="FFTW planner effort for psfsim (--fft-effort) and the bare FFTW "
                        "transform alike (default %(default)s); wisdom files keep planning "
                        "out of the timings")
    p.add_argument("--quick", action="store_true", help="a third of the repeats: a rough look")
    p.add_argument("--no-default-malloc", action="store_true",
                   help="skip the extra NumPy complex64 column timed with glibc's default "
                        "allocator settings (fresh pages, slow on this VM)")
    p.add_argument("--numpy-worker", nargs=4, type=int, help=argparse.SUPPRESS)
    args = p.parse_args()

    if args.numpy_worker:
        numpy_worker(*args.numpy_worker)
        return

    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        fail(f"--sizes {args.sizes}: expected a comma list of integers")
    if not sizes or min(sizes) < 2:
        fail(f"--sizes {args.sizes}: every N must be at least 2")
    if not os.access(args.psfsim, os.X_OK):
        fail(f"psfsim not found at {args.psfsim}: build it (cmake --build build -j2) or pass --psfsim")
    if not args.no_fftw and not os.access(args.fftw_bench, os.X_OK):
        fail(f"{args.fftw_bench} not found: configure with -DPSFSIM_BUILD_BENCH=ON and build "
             "target psfsim_fftw_c2c_bench (Debian: libbenchmark-dev), pass --fftw-bench, or "
             "use --no-fftw")
    try:
        import h5py  # noqa: F401
    except ImportError:
        fail(f"h5py is not importable by {sys.executable}; run this script with /usr/bin/python3")

    T = args.threads
    probe = (busy_cpu_seconds(), own_cpu_seconds(), time.monotonic())
    time.sleep(1.0)
    load_before = other_load(*probe)
    if load_before is not None and load_before > 0.2:
        print(f"{PROG}: warning: other processes are using {load_before:.1f} cores; the "
              "timings (the multi-threaded ones most) will suffer", file=sys.stderr)
    start = (busy_cpu_seconds(), own_cpu_seconds(), time.monotonic())
    rows, fftw_context, numpy_info = [], {}, {}
    with tempfile.TemporaryDirectory(prefix="psfsim-bench-") as work:
        for n in sizes:
            m = 2 * n
            np_reps, ps_reps = repeats_for(n)
            if args.quick:
                np_reps, ps_reps = max(3, np_reps // 3), max(3, ps_reps // 3)
            print(f"N={n} M={m}: NumPy x{np_reps}, psfsim x{ps_reps} ...", file=sys.stderr,
                  flush=True)
            numpy_info = time_numpy(n, m, np_reps, warm_heap=True)
            np_fresh = None
            if not args.no_default_malloc:
                np_fresh = time_numpy(n, m, np_reps, warm_heap=False, both=False)["complex64"]
            ps1, _ = time_psfsim(args.psfsim, n, ps_reps, 1, work, args.fft_effort)
            psT, used = time_psfsim(args.psfsim, n, ps_reps, T, work, args.fft_effort)
            fw1 = fwT = None
            if not args.no_fftw:
                fw1, fftw_context = time_fftw(args.fftw_bench, m, 1, work, args.fft_effort)
                fwT, _ = time_fftw(args.fftw_bench, m, T, work, args.fft_effort)
            rows.append(dict(n=n, m=m, np64=numpy_info["float64"], np32=numpy_info["complex64"],
                             np_fresh=np_fresh, ps1=ps1, psT=psT, fw1=fw1, fwT=fwT, used=used,
                             reps=(np_reps, ps_reps)))
    load_during = other_load(*start)

    fresh_col = not args.no_default_malloc
    lines = [
        f"psfsim CPU backend vs NumPy vs bare FFTW: {cpu_model()}, {os.cpu_count()} cores, "
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        "",
        "| N | M | NumPy float64 | NumPy complex64 "
        + ("| NumPy c64, default malloc " if fresh_col else "")
        + f"| psfsim 1 thr | psfsim {T} thr | FFTW C2C 1 thr | FFTW C2C {T} thr "
        f"| × vs NumPy c64 (1 / {T} thr) | × vs NumPy f64 (1 / {T} thr) "
        f"| psfsim / FFTW (1 / {T} thr) |",
        "|---:" * (11 + fresh_col) + "|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']} | {r['m']} | {fmt_time(r['np64'])} | {fmt_time(r['np32'])} "
            + (f"| {fmt_time(r['np_fresh'])} " if fresh_col else "")
            + f"| {fmt_time(r['ps1'])} | {fmt_time(r['psT'])} | {fmt_time(r['fw1'])} "
            f"| {fmt_time(r['fwT'])} | {ratio(r['np32'], r['ps1'])} / {ratio(r['np32'], r['psT'])} "
            f"| {ratio(r['np64'], r['ps1'])} / {ratio(r['np64'], r['psT'])} "
            f"| {ratio(r['ps1'], r['fw1'], 2)} / {ratio(r['psT'], r['fwT'], 2)} |")

    # docs/spec.md §5 development-machine targets, against the faster NumPy variant (the stricter
    # test)
    checks = []
    for r in rows:
        best_np = min(r["np64"], r["np32"])
        best_ps = min(r["ps1"], r["psT"])
        need = 10 if r["n"] == 128 else 5
        if 64 <= r["n"] <= 2048:
            checks.append(f"N={r['n']}: {best_np / best_ps:.1f}× faster than NumPy "
                          f"(target ≥ {need}×) {'ok' if best_np / best_ps >= need else 'MISSED'}")
        if r["n"] == 128 and r["fw1"] is not None:
            ok1, okT = r["ps1"] <= r["fw1"], r["psT"] <= r["fwT"]
            checks.append(f"N=128: psfsim / FFTW = {r['ps1'] / r['fw1']:.2f} with 1 thread "
                          f"{'ok' if ok1 else 'MISSED'}, {r['psT'] / r['fwT']:.2f} with {T} "
                          f"threads {'ok' if okT else 'MISSED'} (target ≤ 1)")

    fft_note = numpy_info.get("fft_dtype_for_complex64", "?")
    warm = " ".join(f"{k}={v}" for k, v in WARM_HEAP_ENV.items())
    lines += [
        "",
        "Median time for one PSF: N pupil samples, M = 2N, one wave of ρ²cos φ, circular pupil.",
        f"- NumPy {numpy_info.get('numpy', '?')}: the original script's pipeline, one core "
        f"(its fft2 computes a complex64 input in {fft_note}); {', '.join(NUMPY_ENV_DROP)} "
        f"unset; glibc malloc keeping freed memory ({warm}).",
        *(["- NumPy c64, default malloc: the same complex64 run with glibc's defaults, paying "
           "this VM's slow page faults on fresh temporaries."] if fresh_col else []),
        f"- psfsim: --backend cpu --precision single --fft-effort {args.fft_effort}, median of /timings/total (in-process "
        f"compute, no planning, no file write); the {T}-thread runs reported "
        f"{rows[-1]['used'] if rows else '?'} threads.",
        ("- FFTW: not measured (--no-fftw)." if args.no_fftw else
         f"- FFTW: psfsim_fftw_c2c_bench, in-place forward C2C float, FFTW_{args.fft_effort.upper()} (as psfsim), median of 5 "
         f"repetitions ({fftw_context.get('fftw_version', 'FFTW')})."),
        "- × = NumPy time / psfsim time. Repeats (NumPy, psfsim) per N: "
        + "; ".join(f"{r['n']}: {r['reps'][0]}, {r['reps'][1]}" for r in rows) + ".",
        "- CPU used by other processes, in cores: "
        + (f"{load_before:.2f} just before, {load_during:.2f} on average during the run."
           if load_during is not None else "unknown."),
        "",
        "docs/spec.md §5 targets (best psfsim against the faster NumPy variant):",
        *[f"- {c}" for c in checks],
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
        print(f"{PROG}: wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
