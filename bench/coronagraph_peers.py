#!/usr/bin/env python3
"""psfsim's coronagraphs beside HCIPy's on this machine's CPU, in one run (docs/performance.md):
a Lyot coronagraph (4 lambda/D opaque spot, 0.8 D stop) and a charge-6 vortex (0.95 D stop) on
an N = 128 circular pupil, a 64 x 64 detector at 0.5 lambda/D. HCIPy computes one PSF per call
(LyotCoronagraph with its spot on a 16-per-lambda/D grid, VortexCoronagraph with its default
multi-scale windows, FraunhoferPropagator); psfsim one frame per call and a batch, from the
command line's /timings (medians over the repeats after the first). HCIPy is the peer's
v0.7.0 checkout at $HCIPY_PATH (imported with Debian 12's packages; imageio.v2 is aliased to
imageio).

  HCIPY_PATH=/path/to/hcipy /usr/bin/python3 bench/coronagraph_peers.py build/apps/psfsim
"""
import os
import subprocess
import sys
import tempfile
import time

import h5py
import imageio
import numpy as np

psfsim = sys.argv[1]
sys.modules.setdefault("imageio.v2", imageio)
sys.path.insert(0, os.environ.get("HCIPY_PATH", ""))
import hcipy  # noqa: E402


def median_seconds(f, repeats):
    f()
    t = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return float(np.median(t))


n = 128
pupil_grid = hcipy.make_pupil_grid(n, 1)
aperture = hcipy.make_circular_aperture(1)(pupil_grid)
focal_grid = hcipy.make_focal_grid(2, 16)  # 0.5 lambda/D, 64 x 64
propagator = hcipy.FraunhoferPropagator(pupil_grid, focal_grid)
wavefront = hcipy.Wavefront(aperture)
spot_grid = hcipy.make_focal_grid(16, 4)
lyot = hcipy.LyotCoronagraph(pupil_grid, 1 - hcipy.make_circular_aperture(8)(spot_grid),
                             hcipy.make_circular_aperture(0.8)(pupil_grid))
vortex = hcipy.VortexCoronagraph(pupil_grid, 6)
vortex_stop = hcipy.Apodizer(hcipy.make_circular_aperture(0.95)(pupil_grid))
peers = {
    "lyot": median_seconds(lambda: propagator(lyot(wavefront)).intensity, 20),
    "vortex": median_seconds(lambda: propagator(vortex_stop(vortex(wavefront))).intensity, 5),
}
trains = {"lyot": ["--coronagraph", "lyot:4", "--lyot-stop", "0.8"],
          "vortex": ["--coronagraph", "vortex:6", "--lyot-stop", "0.95"]}
print(f"host: {os.cpu_count()} cores; HCIPy {getattr(hcipy, '__version__', 'v0.7.0')}")
print("| coronagraph | HCIPy, one PSF | psfsim, one PSF | psfsim, batch | batch size |")
print("|---|---|---|---|---|")
with tempfile.TemporaryDirectory() as work:
    for name, train in trains.items():
        psfsim_times = []
        for frames, repeats in ((1, 21), (64, 4)):
            out = os.path.join(work, f"{name}{frames}.h5")
            subprocess.run([psfsim, "run", "--backend", "cpu", "--samples", str(n),
                            "--pixel-scale", "0.5lod", "--crop", "64", "--random",
                            f"4-11,0.01,{frames},1", "--repeat", str(repeats), "--quiet",
                            "--force", "-o", out, *train], check=True)
            with h5py.File(out, "r") as f:
                psfsim_times.append(float(np.median(f["timings/total"][1:])) / frames)
        print(f"| {name} | {peers[name] * 1e3:.2f} ms | {psfsim_times[0] * 1e3:.2f} ms | "
              f"{psfsim_times[1] * 1e3:.2f} ms/PSF | 64 |")
