#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_reduce.cpp: the same reductions, sizes and inputs, timed the same way.

Workloads (names match the C++ benchmark's "<op>/<input>" prefix):
  norm/float64_2GB, sum/float64_2GB, sum_a_times_b/float64_2x2GB        2.5e8 float64 per input
  sum_axis{1,0}/float32_{16384x16384, 67108864x4, 4x67108864}           1 GiB float32
  sum_axis{1,0}/float64_16384x8192                                      1 GiB float64
  sum_axis0/float16_16384x32768, sum_axis0/complex64_16384x8192         1 GiB float16, complex64
  mean_axis1_lazy/float32_16384x16384                                   mean(y * 2 + 1, axis=1)
Variants: eager CuPy calls, cupy.fuse (a fused kernel when CuPy's fusion accepts the expression),
cupy.ReductionKernel and cuBLAS dot (cupy.dot) for sum(a * b).

Protocol (bench/README.md): a device-to-device copy of 512 MiB keeps the GPU busy while Python
enqueues the work, cupy.cuda.Event records around the call, the median over many runs after warm-up.
Each workload's bytes are its inputs read plus its result written; x_read_limit is the time over the
time to move those bytes at the bandwidth of a device-to-device copy of the input bytes measured in
this run (a copy of N bytes moves 2N); copy_bw_frac is its inverse. Inputs are never zero, and every
result is checked against closed-form sums.

Usage: cupy_reduce.py [OUT.json]   JSON list of {workload, library, variant, median_ms, bytes, gbps,
x_read_limit, copy_bw_frac, runs, device} to OUT.json (default: stdout after the table). Without
CuPy or a GPU it prints a note, writes [] to OUT.json if given, and exits 0. Exit status 1 when a
result is wrong or an eager variant fails; a fused variant CuPy cannot fuse is noted and skipped.
"""

import json
import math
import os
import sys

import reduce_spec as spec
from cupy_timing import Timer, load

FULL_ELEMENTS = 250_000_000  # 2 GB of float64
SQUARE = 16384  # 16384 x 16384 float32: 1 GiB
LONG = 1 << 26  # 2^26 x 4 float32: 1 GiB
WIDE = 8192  # 16384 x 8192 float64: 1 GiB
SHORT = 4
FULL_RUNS = 20  # 2 GB and 4 GB inputs
MATRIX_RUNS = 50  # 1 GiB inputs
WARMUP = 3


def note(msg):
    print(f"cupy_reduce: {msg}", file=sys.stderr)


def write_json(path, rows):
    text = json.dumps(rows, indent=1)
    if path:
        with open(path, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


# ---- closed forms of the inputs' sums (plain Python, never CuPy) ----


def periodic_sum(n, period, term):
    """sum over k < n of term(k % period)."""
    full = 0.0
    partial = 0.0
    for k in range(period):
        t = term(k)
        full += t
        if k < n % period:
            partial += t
    return (n // period) * full + partial


def a_value(k):
    return k / 1000.0 + 1.0


def b_value(k):
    return 2.0 - k / 1000.0


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("cupy_reduce", out_path)
    if not found:
        return 0
    cp, np, device_name = found
    accelerators = os.environ.get("CUPY_ACCELERATORS", "(default)")
    print(f"cupy_reduce: CuPy {cp.__version__} on {device_name}; CUPY_ACCELERATORS={accelerators}")

    stream = cp.cuda.get_current_stream()
    pool = cp.get_default_memory_pool()

    def d2d(dst, src, nbytes):
        cp.cuda.runtime.memcpyAsync(
            dst.data.ptr, src.data.ptr, nbytes, cp.cuda.runtime.memcpyDeviceToDevice, stream.ptr
        )

    median_ms = Timer(cp, WARMUP).median_ms

    copy_ms = {}
    rows = []
    status = 0

    def copy_time(nbytes):
        """Median time of a device-to-device copy of nbytes (moves 2 * nbytes), once per size."""
        if nbytes not in copy_ms:
            src = cp.full(nbytes, 1, dtype=cp.uint8)
            dst = cp.empty_like(src)
            ms, _ = median_ms(lambda: d2d(dst, src, nbytes), 20)
            del src, dst
            pool.free_all_blocks()
            copy_ms[nbytes] = ms
        return copy_ms[nbytes]

    def add_copy_row(name, nbytes):
        ms = copy_time(nbytes)
        rows.append(
            dict(workload=f"d2d_copy/{name}", library="cupy", variant="cudaMemcpyAsync", median_ms=ms,
                 bytes=2 * nbytes, gbps=2 * nbytes / ms / 1e6, x_read_limit=1.0, copy_bw_frac=1.0,
                 runs=20, device=device_name)
        )

    def measure(workload, variant, fn, input_bytes, runs, check, optional=False):
        nonlocal status
        try:
            ms, result = median_ms(fn, runs)
        except Exception as e:
            note(f"{workload} [{variant}]: {type(e).__name__}: {e}")
            if not optional:
                status = 1
            rows.append(dict(workload=workload, library="cupy", variant=variant, error=f"{type(e).__name__}: {e}",
                             device=device_name))
            return
        moved = input_bytes + result.nbytes
        copy_bandwidth = 2 * input_bytes / copy_time(input_bytes)  # bytes per ms
        limit_ms = moved / copy_bandwidth
        row = dict(workload=workload, library="cupy", variant=variant, median_ms=ms, bytes=moved,
                   gbps=moved / ms / 1e6, x_read_limit=ms / limit_ms, copy_bw_frac=limit_ms / ms, runs=runs,
                   device=device_name)
        problem = check(result)
        if problem:
            note(f"{workload} [{variant}]: wrong result: {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)

    def check_scalar(expected, tolerance=1e-8):
        def check(result):
            got = float(result)
            if abs(got - expected) > tolerance * abs(expected):
                return f"got {got!r}, expected {expected!r}"
            return None

        return check

    def check_vector(n, expected):
        """Entries 0, n/2, n-1 of a result against expected(index), loosely (float32 sums)."""
        return lambda result: spec.check_vector(cp.asnumpy(result), n, expected)

    full_bytes = FULL_ELEMENTS * 8
    matrix_bytes = SQUARE * SQUARE * 4
    # Copies first, while nothing else is allocated (the 4 GB copy needs 8 GB).
    add_copy_row("2GB", full_bytes)
    add_copy_row("4GB", 2 * full_bytes)
    add_copy_row("1GiB", matrix_bytes)

    # ---- 1. full reductions of 2.5e8 float64 ----
    idx = cp.arange(FULL_ELEMENTS) % 1000
    a = idx / 1000.0 + 1.0
    b = 2.0 - idx / 1000.0
    del idx
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()

    norm_expected = math.sqrt(periodic_sum(FULL_ELEMENTS, 1000, lambda k: a_value(k) * a_value(k)))
    sum_expected = periodic_sum(FULL_ELEMENTS, 1000, a_value)
    dot_expected = periodic_sum(FULL_ELEMENTS, 1000, lambda k: a_value(k) * b_value(k))

    w = "norm/float64_2GB"
    measure(w, "eager", lambda: cp.linalg.norm(a), full_bytes, FULL_RUNS, check_scalar(norm_expected))
    # cupy.fuse names the kernel after the function: a lambda's "<lambda>" is not an identifier.
    def fused_norm_fn(v):
        return cp.sqrt(cp.sum(v * v))

    fused_norm = cp.fuse(fused_norm_fn)
    measure(w, "fuse", lambda: fused_norm(a), full_bytes, FULL_RUNS, check_scalar(norm_expected), optional=True)

    w = "sum/float64_2GB"
    measure(w, "eager", lambda: cp.sum(a), full_bytes, FULL_RUNS, check_scalar(sum_expected))

    w = "sum_a_times_b/float64_2x2GB"
    measure(w, "eager", lambda: cp.sum(a * b), 2 * full_bytes, FULL_RUNS, check_scalar(dot_expected))
    def fused_dot_fn(x, y):
        return cp.sum(x * y)

    fused_dot = cp.fuse(fused_dot_fn)
    measure(w, "fuse", lambda: fused_dot(a, b), 2 * full_bytes, FULL_RUNS, check_scalar(dot_expected),
            optional=True)
    dot_kernel = cp.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "bench_sum_a_times_b")
    measure(w, "reduction_kernel", lambda: dot_kernel(a, b), 2 * full_bytes, FULL_RUNS,
            check_scalar(dot_expected), optional=True)
    measure(w, "cublas_dot", lambda: cp.dot(a, b), 2 * full_bytes, FULL_RUNS, check_scalar(dot_expected),
            optional=True)
    del a, b
    cp.cuda.Device().synchronize()
    pool.free_all_blocks()

    # ---- 2. row and column sums of 1 GiB float32; 3. mean of a lazy expression ----
    def row_value(j):
        return np.float32(j % 1000 / 1000.0 + 1.0)

    def col_value(i):
        return np.float32(i % 7) * np.float32(0.125)

    def x_value(i, j):
        return row_value(j) + col_value(i)  # float32 + float32, as on the device

    def matrix(rows_, cols_):
        col = (cp.arange(rows_) % 7).astype(cp.float32) * cp.float32(0.125)
        row = (cp.arange(cols_) % 1000 / 1000.0 + 1.0).astype(cp.float32)
        x = col[:, None] + row[None, :]
        assert x.dtype == cp.float32 and x.flags.c_contiguous
        return x

    # The float32 shapes, then the same values in 1 GiB of float64 (exact: half as many columns).
    cases = [(SQUARE, SQUARE, "float32"), (LONG, SHORT, "float32"), (SHORT, LONG, "float32"),
             (SQUARE, WIDE, "float64")]
    for rows_, cols_, dtype in cases:
        x = matrix(rows_, cols_).astype(dtype)
        cp.cuda.Device().synchronize()
        pool.free_all_blocks()
        shape = f"{dtype}_{rows_}x{cols_}"
        measure(f"sum_axis1/{shape}", "eager", lambda: cp.sum(x, axis=1), matrix_bytes, MATRIX_RUNS,
                check_vector(rows_, lambda i: periodic_sum(cols_, 1000, lambda k: float(x_value(i, k)))))
        measure(f"sum_axis0/{shape}", "eager", lambda: cp.sum(x, axis=0), matrix_bytes, MATRIX_RUNS,
                check_vector(cols_, lambda j: periodic_sum(rows_, 7, lambda k: float(x_value(k, j)))))
        if (rows_, cols_) == (SQUARE, SQUARE):
            w = f"mean_axis1_lazy/{shape}"

            def mean_expected(i):
                total = periodic_sum(SQUARE, 1000, lambda k: float(x_value(i, k) * np.float32(2) + np.float32(1)))
                return total / SQUARE

            measure(w, "eager", lambda: cp.mean(x * 2 + 1, axis=1), matrix_bytes, MATRIX_RUNS,
                    check_vector(SQUARE, mean_expected))
            # cupy.fuse has sum but not mean: sum over the axis, then the divide fused after it.
            def fused_mean_fn(v):
                return cp.sum(v * 2 + 1, axis=1) / SQUARE

            fused_mean = cp.fuse(fused_mean_fn)
            measure(w, "fuse", lambda: fused_mean(x), matrix_bytes, MATRIX_RUNS,
                    check_vector(SQUARE, mean_expected), optional=True)
        del x
        cp.cuda.Device().synchronize()
        pool.free_all_blocks()
    for rows_, cols_, dtype in spec.column_cases():  # the column kernel at 2- and 8-byte elements
        x = matrix(rows_, cols_).astype(dtype)
        if dtype == "complex64":
            x *= 1 + 2j
        cp.cuda.Device().synchronize()
        pool.free_all_blocks()
        m = spec.Matrix(np, rows_, cols_, dtype)
        measure(f"sum_axis0/{spec.shape_name(rows_, cols_, dtype)}", "eager", lambda: cp.sum(x, axis=0), x.nbytes,
                MATRIX_RUNS, check_vector(cols_, m.col_sum))
        del x
        cp.cuda.Device().synchronize()
        pool.free_all_blocks()

    # ---- report ----
    print(f"{'workload':<40} {'variant':<18} {'median_ms':>10} {'GB/s':>8} {'x_read_limit':>12} {'copy_bw_frac':>12}")
    for r in rows:
        if "median_ms" not in r:
            print(f"{r['workload']:<40} {r['variant']:<18} {'-':>10} {'-':>8} {'-':>12} {'-':>12}  {r['error']}")
            continue
        flag = f"  {r['error']}" if "error" in r else ""
        print(f"{r['workload']:<40} {r['variant']:<18} {r['median_ms']:>10.3f} {r['gbps']:>8.0f} "
              f"{r['x_read_limit']:>12.3f} {r['copy_bw_frac']:>12.3f}{flag}")
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
