#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_linalg.cpp: the same products, sizes and inputs, timed the same way.

Workloads (names match the C++ benchmark):
  matmul/float64_10000, matmul/float32_10000   cupy.matmul of 10000 x 10000 matrices
  matmul_at_b/float64_10000                    cupy.matmul(a.T, b)
  scaled_matmul/float32_1Mx64                  2.5 * cupy.matmul(x, w) + 0.5 * y, x (2^20 x 64), w (64 x 64)
Protocol (bench/README.md): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work; cupy.cuda.Event records around the call; the median over the runs after warm-up.
TFLOP/s = 2 n^3 / time. Inputs are multiples of 1/4 whose products are exact: entries are checked.

Usage: cupy_linalg.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong.
"""

import json
import sys

from cupy_timing import Timer, load

N = 10000
WARMUP = 1
RUNS = 5


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("cupy_linalg", out_path)
    if not found:
        return 0
    cp, np, device = found
    print(f"cupy_linalg: CuPy {cp.__version__} on {device}")
    timer = Timer(cp, WARMUP)

    def host_a(i):
        return (i % 7 - 3) / 4

    def host_b(i):
        return (i % 5 - 2) / 4

    k = np.arange(N)
    rows, status = [], 0
    for dt, transposed in (("float64", False), ("float64", True), ("float32", False)):
        a = ((cp.arange(N * N) % 7 - 3) / 4.0).astype(dt).reshape(N, N)
        b = ((cp.arange(N * N) % 5 - 2) / 4.0).astype(dt).reshape(N, N)
        lhs = a.T if transposed else a
        ms, r = timer.median_ms(lambda: cp.matmul(lhs, b), RUNS)
        name = ("matmul_at_b/" if transposed else "matmul/") + dt + "_10000"
        for i, j in ((0, 0), (1, 7), (4321, 9876), (N - 1, N - 1)):
            av = host_a(k * N + i) if transposed else host_a(i * N + k)
            want = float(np.sum(av * host_b(k * N + j)))
            if float(r[i, j]) != want:
                status = 1
                print(f"cupy_linalg: WRONG {name} at ({i}, {j}): {float(r[i, j])} vs {want}")
        tflops = 2.0 * N**3 / (ms / 1e3) / 1e12
        rows.append(dict(workload=name, library="cupy", variant="eager", median_ms=ms, tflops=tflops, runs=RUNS,
                         device=device))
        print(f"  {name:32s} {ms:9.3f} ms  {tflops:6.2f} TFLOP/s")
        del a, b, lhs, r
        cp.get_default_memory_pool().free_all_blocks()
    rows_, d = 1 << 20, 64
    x = ((cp.arange(rows_ * d) % 7 - 3) / 4.0).astype(cp.float32).reshape(rows_, d)
    w = ((cp.arange(d * d) % 5 - 2) / 4.0).astype(cp.float32).reshape(d, d)
    y = ((cp.arange(rows_ * d) % 3 - 1) / 1.0).astype(cp.float32).reshape(rows_, d)
    ms, r = timer.median_ms(lambda: 2.5 * cp.matmul(x, w) + 0.5 * y, RUNS)
    name = "scaled_matmul/float32_1Mx64"
    rows.append(dict(workload=name, library="cupy", variant="eager", median_ms=ms, runs=RUNS, device=device))
    print(f"  {name:32s} {ms:9.3f} ms")
    if out_path:
        with open(out_path, "w") as f:
            json.dump(rows, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
