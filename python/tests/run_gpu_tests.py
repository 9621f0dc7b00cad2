"""CTest's python_module_gpu: the GPU tests under pytest where a CUDA device is usable, else
exit 77, which CTest reports as skipped (a skip visible in its summary, not only in pytest's)."""
import os
import subprocess
import sys

import psfsim

if "cuda" not in psfsim.backends():
    print("SKIPPED: this build of psfsim has no CUDA backend")
    sys.exit(77)
if why := psfsim._psfsim.unusable_reason("cuda"):
    print(f"SKIPPED: no usable CUDA device: {why}")
    sys.exit(77)
here = os.path.dirname(os.path.abspath(__file__))
sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", "-rs",
                          os.path.join(here, "test_gpu.py")]))
