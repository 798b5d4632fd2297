#!/usr/bin/env python3
"""Experiment (session 23), beside fft_paths.cu: which libcufft CuPy loads (path, size, cuFFT
version), how CuPy makes its plan for cupy.fft.fft of 2^24 complex128 values, and its time under the
bench's protocol (bench/peers/cupy_timing.py), in rounds of 21."""
import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench", "peers"))
import cupy as cp  # noqa: E402
from cupy_timing import Timer  # noqa: E402

n = 1 << 24
x = cp.exp(2j * cp.pi * 5 * cp.arange(n) / n)
y = cp.fft.fft(x)
cp.cuda.Device().synchronize()
libs = sorted({line.split()[-1] for line in open("/proc/self/maps") if "cufft" in line})
for lib in libs:
    with open(lib, "rb") as f:
        digest = hashlib.md5(f.read()).hexdigest()
    print("cupy loads", lib, os.path.getsize(lib), "bytes, md5", digest)
for cand in ["/usr/local/cuda/lib64/libcufft.so.12", "/usr/local/cuda/targets/x86_64-linux/lib/libcufft.so.12"]:
    if os.path.exists(cand):
        real = os.path.realpath(cand)
        with open(real, "rb") as f:
            print("toolkit", real, os.path.getsize(real), "bytes, md5", hashlib.md5(f.read()).hexdigest())
print("cuFFT version (CuPy's):", cp.cuda.cufft.getVersion())
cache = cp.fft.config.get_plan_cache()
cache.show_info()
timer = Timer(cp, 3)
for r in range(3):
    ms, _ = timer.median_ms(lambda: cp.fft.fft(x), 21)
    print(f"round {r}: cupy.fft.fft {ms * 1e3:.1f} us")
plan = cp.cuda.cufft.Plan1d(n, cp.cuda.cufft.CUFFT_Z2Z, 1)
out = cp.empty_like(x)
for r in range(3):
    ms, _ = timer.median_ms(lambda: plan.fft(x, out, cp.cuda.cufft.CUFFT_FORWARD), 21)
    print(f"round {r}: Plan1d.fft into one output {ms * 1e3:.1f} us")
