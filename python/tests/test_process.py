"""What only a process of its own shows: Ctrl-C stops a long call within a second and leaves
nothing behind, and 10^5 calls do not grow the process."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import psfsim

LONG_BATCH = textwrap.dedent("""
    import sys, time
    import numpy as np
    import psfsim
    mode, folder = sys.argv[1], sys.argv[2]
    options = dict(samples=128, backend="cpu", threads=1, metrics="strehl", store="metrics")
    sim = psfsim.Simulator(**options)
    print("ready", flush=True)
    start = time.perf_counter()
    try:
        if mode == "call":
            sim(vary="Z4,0,1,200000")
        else:
            psfsim.run(output=folder + "/out.h5", vary="Z4,0,1,200000", **options)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted {time.perf_counter() - start:.3f}", flush=True)
""")


@pytest.mark.parametrize("mode", ["call", "run"])
def test_ctrl_c_stops_a_long_call(mode, tmp_path):
    child = subprocess.Popen([sys.executable, "-c", LONG_BATCH, mode, str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ))
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    waited = time.perf_counter() - sent
    assert out.startswith("interrupted"), (out, err)
    assert waited < 1.0 + 0.5, f"stopped {waited:.2f} s after the signal"  # 0.5 s: the exit
    assert err == ""
    assert os.listdir(tmp_path) == [], "a file was left behind"


RSS_LOOP = textwrap.dedent("""
    import numpy as np
    import psfsim

    def rss_kib():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))

    sim = psfsim.Simulator(samples=16, backend="cpu", threads=1, metrics="strehl")
    out = np.empty(sim.frame_shape, np.float32)
    for _ in range(20000):
        sim(zernike={4: 0.1})
        sim(out=out)
    before = rss_kib()
    for _ in range(50000):
        sim(zernike={4: 0.1})
        sim(out=out)
    print(rss_kib() - before)
""")


def test_no_memory_growth_over_100000_calls():
    done = subprocess.run([sys.executable, "-c", RSS_LOOP], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    grown_kib = int(done.stdout.strip())
    assert grown_kib < 4096, f"RSS grew {grown_kib} KiB over 10^5 calls"
