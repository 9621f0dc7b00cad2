"""fft, mft and auto side by side from `psfsim sweep --propagation fft,mft,auto` printed rows
on stdin (no h5py needed): PSFs/s of each, and the time of the path auto chose over the
faster one's. The chosen path's own row is the measure: auto runs that very path, and its
separate row differs from it only by the sweep's noise (on a 2-core VM, up to 20% between
two rows of the same code), which is printed beside it."""
import sys

times = {}
for line in sys.stdin:
    f = line.split()
    if len(f) < 8 or f[0] not in ("cpu", "cuda"):
        continue
    # backend prec prop store N M B K | stages | total min max | PSFs/s
    bars = [i for i, x in enumerate(f) if x == "|"]
    times.setdefault((int(f[4]), int(f[6]), int(f[7])), []).append(
        (f[2], float(f[bars[1] + 1]), float(f[-1])))

print("%5s %6s %5s %12s %12s %5s %12s %12s" % ("N", "B", "K", "fft PSFs/s", "mft PSFs/s", "auto",
                                                "chosen/best", "auto row/best"))
worst = 0.0
for (n, b, k), entries in sorted(times.items()):
    # The sweep prints fft, mft, auto in that order; auto's row names what it chose. Where K
    # exceeds M only the explicit mft row exists.
    if len(entries) < 3:
        print("%5d %6d %5d %12s %12.0f  (K > M: mft only)" % (n, b, k, "-", entries[0][2]))
        continue
    fft, mft, auto = entries
    best = min(fft[1], mft[1])
    chosen = (fft if auto[0] == "fft" else mft)[1] / best
    worst = max(worst, chosen)
    print("%5d %6d %5d %12.0f %12.0f %5s %12.2f %12.2f" % (n, b, k, fft[2], mft[2], auto[0],
                                                          chosen, auto[1] / best))
print("worst chosen/best: %.2f (target <= 1.1)" % worst)
