"""fft, mft and auto side by side from `psfsim sweep --propagation fft,mft,auto` printed rows
on stdin (no h5py needed): PSFs/s of each, and auto's time over the faster one's."""
import sys

times = {}
for line in sys.stdin:
    f = line.split()
    if len(f) < 8 or f[0] not in ("cpu", "cuda"):
        continue
    # backend prec prop store N M B K | stages | total min max | PSFs/s
    bars = [i for i, x in enumerate(f) if x == "|"]
    times.setdefault((int(f[4]), int(f[7])), []).append((f[2], float(f[bars[1] + 1]), float(f[-1])))

print("%5s %5s %12s %12s %5s %10s" % ("N", "K", "fft PSFs/s", "mft PSFs/s", "auto", "auto/best"))
worst = 0.0
for (n, k), entries in sorted(times.items()):
    # The sweep prints fft, mft, auto in that order; auto's row names what it chose. Where K
    # exceeds M only the explicit mft row exists.
    if len(entries) < 3:
        print("%5d %5d %12s %12.0f  (K > M: mft only)" % (n, k, "-", entries[0][2]))
        continue
    fft, mft, auto = entries
    ratio = auto[1] / min(fft[1], mft[1])
    worst = max(worst, ratio)
    print("%5d %5d %12.0f %12.0f %5s %10.2f" % (n, k, fft[2], mft[2], auto[0], ratio))
print("worst auto/best: %.2f (target <= 1.1)" % worst)
