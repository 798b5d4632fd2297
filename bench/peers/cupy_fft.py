#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_fft.cpp: the same transforms, sizes and inputs, timed the same way.

Workloads (names match the C++ benchmark):
  fft/complex128_2^24    cupy.fft.fft of 2^24 complex128 values
  rfft/float64_2^24      cupy.fft.rfft of 2^24 float64 values
  fft2/complex64_4096    cupy.fft.fft2 of a 4096 x 4096 complex64 array
Protocol (bench/README.md): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work; cupy.cuda.Event records around the call; the median over the runs after warm-up. The
warm-up call makes the cuFFT plan (CuPy caches plans too), so the times are transforms only.
GB/s = (input bytes + output bytes) / time. Inputs are pure tones exp(2 pi i k0 j / n): the transform is
n at k0 and 0 elsewhere, which a few entries are checked against.

Usage: cupy_fft.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0. Exit status
1 when a result is wrong.
"""

import json
import math
import sys

from cupy_timing import Timer, load

N1 = 1 << 24
SIDE = 4096
K0, K1 = 5, 3
WARMUP = 2
RUNS = 20


def tone(cp, n, k, real):
    phase = cp.arange(n, dtype=cp.float64) * (2 * math.pi * k / n)
    return cp.cos(phase) if real else cp.cos(phase) + 1j * cp.sin(phase)


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("cupy_fft", out_path)
    if not found:
        return 0
    cp, _, device = found
    print(f"cupy_fft: CuPy {cp.__version__} on {device}")
    timer = Timer(cp, WARMUP)
    rows, status = [], 0
    for name in ("fft/complex128_2^24", "rfft/float64_2^24", "fft2/complex64_4096"):
        if name.startswith("fft/"):
            x = tone(cp, N1, K0, False)
            fn = lambda: cp.fft.fft(x)  # noqa: E731
            nbytes = 2 * 16 * N1
            peak_at, peak, zeros_at, tol = (K0,), N1, [(0,), (K0 + 1,), (12345,)], 1e-9 * N1
        elif name.startswith("rfft/"):
            x = tone(cp, N1, K0, True)
            fn = lambda: cp.fft.rfft(x)  # noqa: E731
            nbytes = 8 * N1 + 16 * (N1 // 2 + 1)
            peak_at, peak, zeros_at, tol = (K0,), N1 / 2, [(0,), (K0 + 1,), (12345,)], 1e-9 * N1
        else:
            x = (tone(cp, SIDE, K0, False)[:, None] * tone(cp, SIDE, K1, False)[None, :]).astype(cp.complex64)
            fn = lambda: cp.fft.fft2(x)  # noqa: E731
            nbytes = 2 * 8 * SIDE * SIDE
            peak_at, peak, zeros_at, tol = (K0, K1), SIDE * SIDE, [(0, 0), (K0, K1 + 1), (SIDE - 1, 17)], 1e-4 * SIDE**2
        ms, r = timer.median_ms(fn, RUNS)
        ok = abs(complex(r[peak_at]) - peak) <= tol and all(abs(complex(r[z])) <= tol for z in zeros_at)
        if not ok:
            status = 1
            print(f"cupy_fft: WRONG {name}: peak {complex(r[peak_at])} vs {peak}")
        gbs = nbytes / (ms / 1e3) / 1e9
        rows.append(dict(workload=name, library="cupy", variant="eager", median_ms=ms, gb_per_s=gbs, bytes=nbytes,
                         runs=RUNS, device=device))
        print(f"  {name:28s} {ms:9.3f} ms  {gbs:8.1f} GB/s")
        del x, r
        cp.get_default_memory_pool().free_all_blocks()
    if out_path:
        with open(out_path, "w") as f:
            json.dump(rows, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
