#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_views.cpp: the same workloads, sizes and inputs, timed the same way.

Workloads (names match the C++ benchmark):
  stencil/float64_2GB                  (a[:-1] + a[1:]) * 0.5 of 2.5e8 float64: eager and cupy.fuse
  transpose_copy/float32_16384x16384   x.T.copy() of 1 GiB float32
  gather/float64_25M                   x[idx] * 2 at 2.5e7 scattered int64 indices
  sort/float32_1e8, argsort/float32_1e8   cupy.sort / cupy.argsort of 1e8 float32 keys
Protocol (bench/README.md): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work; cupy.cuda.Event records around the call; the median over the runs after warm-up. x_copy is
the time over a device-to-device copy of the limit bytes (the same as the C++ rows), measured here.

Usage: cupy_views.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong.
"""

import json
import sys

from cupy_timing import Timer, load

STENCIL = 250_000_000
SQUARE = 16384
GATHER = 25_000_000
SORT = 100_000_000
WARMUP = 2


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("cupy_views", out_path)
    if not found:
        return 0
    cp, np, device = found
    print(f"cupy_views: CuPy {cp.__version__} on {device}")
    median_ms = Timer(cp, WARMUP).median_ms

    copy_ms = {}

    def copy_time(nbytes):
        if nbytes not in copy_ms:
            src = cp.ones(nbytes, dtype=cp.uint8)
            dst = cp.empty_like(src)
            copy_ms[nbytes], _ = median_ms(lambda: dst.__setitem__(Ellipsis, src), 20)
            del src, dst
            cp.get_default_memory_pool().free_all_blocks()
        return copy_ms[nbytes]

    rows, status = [], 0

    def measure(workload, variant, fn, limit_bytes, moved_bytes, runs, check):
        nonlocal status
        ms, result = median_ms(fn, runs)
        problem = check(result)
        if problem:
            status = 1
            print(f"cupy_views: WRONG {workload} {variant}: {problem}")
        limit = copy_time(limit_bytes)
        rows.append(dict(workload=workload, library="cupy", variant=variant, median_ms=ms, bytes=moved_bytes,
                         gbps=moved_bytes / ms / 1e6, x_copy=ms / limit, copy_bw_frac=limit / ms, runs=runs,
                         device=device))
        print(f"  {workload:40s} {variant:10s} {ms:9.3f} ms  {moved_bytes / ms / 1e6:8.1f} GB/s  "
              f"x_copy {ms / limit:6.3f}")
        del result

    def a_value(i):
        return (i % 1000) / 1000.0 + 1.0

    # 1. stencil
    a = cp.arange(STENCIL) % 1000 / 1000.0 + 1.0
    @cp.fuse()
    def half_sum(x, y):
        return (x + y) * 0.5


    def check_stencil(r):
        for i in (0, 998, 999, STENCIL - 2):
            if float(r[i]) != (a_value(i) + a_value(i + 1)) * 0.5:
                return f"stencil[{i}] = {float(r[i])}"
        return ""

    stencil_bytes = (2 * STENCIL - 1) * 8
    measure("stencil/float64_2GB", "eager", lambda: (a[:-1] + a[1:]) * 0.5, STENCIL * 8, stencil_bytes, 4,
            check_stencil)
    measure("stencil/float64_2GB", "fuse", lambda: half_sum(a[:-1], a[1:]), STENCIL * 8, stencil_bytes, 4,
            check_stencil)
    del a
    cp.get_default_memory_pool().free_all_blocks()

    # 2. transpose copy
    x = (cp.arange(SQUARE * SQUARE) % 1000).astype(cp.float32).reshape(SQUARE, SQUARE)

    def check_transpose(r):
        for i, j in ((0, 1), (5, 7), (SQUARE - 1, 3), (17, SQUARE - 2)):
            if float(r[i, j]) != float((j * SQUARE + i) % 1000):
                return f"x.T[{i},{j}] = {float(r[i, j])}"
        return ""

    measure("transpose_copy/float32_16384x16384", "eager", lambda: x.T.copy(), SQUARE * SQUARE * 4,
            2 * SQUARE * SQUARE * 4, 6, check_transpose)
    del x
    cp.get_default_memory_pool().free_all_blocks()

    # 3. gather
    g = cp.arange(GATHER) % 1000 / 1000.0 + 1.0
    idx = (cp.arange(GATHER) * 7919 + 13) % GATHER

    def check_gather(r):
        for i in (0, 12345, GATHER - 1):
            if float(r[i]) != a_value((i * 7919 + 13) % GATHER) * 2.0:
                return f"gather[{i}] = {float(r[i])}"
        return ""

    measure("gather/float64_25M", "eager", lambda: g[idx] * 2.0, GATHER * 8, GATHER * 24, 10, check_gather)
    del g, idx
    cp.get_default_memory_pool().free_all_blocks()

    # 4. sort
    keys = ((cp.arange(SORT) * 2654435761) % 4294967296 / 4294967296.0).astype(cp.float32)

    def check_sorted(values):
        v = cp.asnumpy(values)
        return "" if np.all(v[:-1] <= v[1:]) else "not sorted"

    measure("sort/float32_1e8", "eager", lambda: cp.sort(keys), SORT * 4, SORT * 8, 4, check_sorted)
    measure("argsort/float32_1e8", "eager", lambda: cp.argsort(keys), SORT * 4, SORT * 12, 4,
            lambda r: check_sorted(keys[r]))
    if out_path:
        with open(out_path, "w") as f:
            f.write(json.dumps(rows, indent=1) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
