#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_reduce.cpp: the same reductions, sizes and inputs (reduce_spec.py).

Workloads (names match the C++ benchmark's "<op>/<input>" prefix):
  norm/float64_2GB, sum/float64_2GB, sum_a_times_b/float64_2x2GB        2.5e8 float64 per input
  sum_axis{1,0}/float32_{16384x16384, 67108864x4, 4x67108864}           1 GiB float32
  sum_axis0/float16_16384x32768, sum_axis0/complex64_16384x8192         1 GiB float16, complex64
  mean_axis1_lazy/float32_16384x16384                                   mean(y * 2 + 1, axis=1)
Variant: jit (jax.jit of jnp.linalg.norm, jnp.sum, jnp.mean; XLA fuses the producer into the
reduction). No copy rows (JAX has no plain copy to time): the report takes the limit from ndfuse's.

Protocol (jax_timing.py): wall clock around a loop of calls ended by block_until_ready, the median
over runs after warm-up (which compiles). bytes = inputs read + result written. Every result is
checked against closed-form sums.

Usage: jax_reduce.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit status
1 when a result is wrong or a call fails.
"""

import sys

import reduce_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 2
SCRIPT = "jax_reduce"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    timer = Timer(jax, WARMUP)
    rows, status = [], 0

    def measure(workload, fn, args, input_bytes, runs, check):
        nonlocal status
        jitted = jax.jit(fn)
        try:
            ms, result = timer.median_ms(lambda: jitted(*args), max(5, runs // 3))
            problem = check(np.asarray(result))
        except Exception as e:  # noqa: BLE001 - reported in the row
            note(SCRIPT, f"{workload}: {type(e).__name__}: {e}")
            rows.append(dict(workload=workload, library="jax", variant="jit", error=f"{type(e).__name__}: {e}",
                             device=device))
            status = 1
            return
        moved = input_bytes + result.size * result.dtype.itemsize
        row = dict(workload=workload, library="jax", variant="jit", median_ms=ms, bytes=moved, gbps=moved / ms / 1e6,
                   runs=max(5, runs // 3), device=device)
        if problem:
            note(SCRIPT, f"{workload}: wrong result: {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)

    def scalar(expected):
        return lambda r: spec.check_scalar(float(r), expected)

    # ---- 1. full reductions of 2.5e8 float64 ----
    idx = jnp.arange(spec.FULL_ELEMENTS, dtype=jnp.int64) % 1000
    a = idx / 1000.0 + 1.0
    b = 2.0 - idx / 1000.0
    del idx
    full = spec.FULL_ELEMENTS * 8
    expected = spec.full_expected()
    measure("norm/float64_2GB", jnp.linalg.norm, (a,), full, spec.FULL_RUNS, scalar(expected["norm"]))
    measure("sum/float64_2GB", jnp.sum, (a,), full, spec.FULL_RUNS, scalar(expected["sum"]))
    measure("sum_a_times_b/float64_2x2GB", lambda x, y: jnp.sum(x * y), (a, b), 2 * full, spec.FULL_RUNS,
            scalar(expected["dot"]))
    del a, b

    # ---- 2. row and column sums of 1 GiB float32; 3. mean of a lazy expression ----
    def matrix(rows_, cols_, dtype):
        col = (jnp.arange(rows_, dtype=jnp.int64) % 7).astype(jnp.float32) * jnp.float32(0.125)
        row = (jnp.arange(cols_, dtype=jnp.int64) % 1000 / 1000.0 + 1.0).astype(jnp.float32)
        x = (col[:, None] + row[None, :]).astype(getattr(jnp, dtype))
        return jax.block_until_ready(x * (1 + 2j) if dtype == "complex64" else x)

    cases = [(r_, c_, "float32") for r_, c_ in spec.shapes()] + [(*spec.float64_shape(), "float64")]
    for rows_, cols_, dtype in cases:
        x = matrix(rows_, cols_, dtype)
        m = spec.Matrix(np, rows_, cols_)
        shape = spec.shape_name(rows_, cols_, dtype)
        matrix_bytes = x.size * x.dtype.itemsize
        measure(f"sum_axis1/{shape}", lambda v: jnp.sum(v, axis=1), (x,), matrix_bytes, spec.MATRIX_RUNS,
                lambda r: spec.check_vector(r, rows_, m.row_sum))
        measure(f"sum_axis0/{shape}", lambda v: jnp.sum(v, axis=0), (x,), matrix_bytes, spec.MATRIX_RUNS,
                lambda r: spec.check_vector(r, cols_, m.col_sum))
        if (rows_, cols_) == (spec.SQUARE, spec.SQUARE):
            measure(f"mean_axis1_lazy/{shape}", lambda v: jnp.mean(v * 2 + 1, axis=1), (x,), matrix_bytes,
                    spec.MATRIX_RUNS, lambda r: spec.check_vector(r, rows_, m.lazy_mean))
        del x
    for rows_, cols_, dtype in spec.column_cases():  # the column kernel at 2- and 8-byte elements
        x = matrix(rows_, cols_, dtype)
        m = spec.Matrix(np, rows_, cols_, dtype)
        measure(f"sum_axis0/{spec.shape_name(rows_, cols_, dtype)}", lambda v: jnp.sum(v, axis=0), (x,),
                x.size * x.dtype.itemsize, spec.MATRIX_RUNS, lambda r: spec.check_vector(r, cols_, m.col_sum))
        del x

    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
