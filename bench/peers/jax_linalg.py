#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_linalg.cpp: the same products, sizes and inputs (linalg_spec.py).

Workloads (names match the C++ benchmark):
  matmul/float64_10000, matmul/float32_10000   jax.jit(jnp.matmul) of 10000 x 10000 matrices, precision
                                               'highest' (float32 products in IEEE float32, not TF32)
  matmul_at_b/float64_10000                    jnp.matmul(a.T, b) inside the jit (the transpose folds
                                               into the GEMM)
  scaled_matmul/float32_1Mx64                  jax.jit of 2.5 * x @ w + 0.5 * y
Protocol (jax_timing.py): wall clock around a loop of calls ended by block_until_ready, the median
over runs after warm-up. TFLOP/s = 2 n^3 / time. Entries are exact and checked.

Usage: jax_linalg.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit status
1 when a result is wrong or a call fails.
"""

import sys

import linalg_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 1
RUNS = 5
SCRIPT = "jax_linalg"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    timer = Timer(jax, WARMUP)
    rows, status = [], 0
    n = spec.N

    def flat(count, period, offset, dtype):
        v = jnp.arange(count, dtype=jnp.int64) % period - offset
        return (v / 4.0).astype(dtype)

    def record(name, ms, problem, **extra):
        nonlocal status
        row = dict(workload=name, library="jax", variant="jit", median_ms=ms, runs=RUNS, device=device, **extra)
        if problem:
            note(SCRIPT, f"{name}: wrong result {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)

    product = jax.jit(jnp.matmul)
    product_at_b = jax.jit(lambda a, b: jnp.matmul(a.T, b))
    for dtype, transposed in spec.PRODUCTS:
        a = flat(n * n, 7, 3, dtype).reshape(n, n)
        b = flat(n * n, 5, 2, dtype).reshape(n, n)
        fn = product_at_b if transposed else product
        ms, r = timer.median_ms(lambda: fn(a, b), RUNS)
        entries = np.asarray(r[np.array([i for i, _ in spec.CHECKED]), np.array([j for _, j in spec.CHECKED])])
        got = {ij: float(v) for ij, v in zip(spec.CHECKED, entries)}
        problem = spec.check_entries(np, lambda i, j: got[(i, j)],
                                     lambda i, j: spec.product_entry(np, i, j, transposed), spec.CHECKED)
        record(spec.product_name(dtype, transposed), ms, problem, tflops=spec.tflops(ms))
        del a, b, r

    x = flat(spec.TALL * spec.WIDTH, 7, 3, "float32").reshape(spec.TALL, spec.WIDTH)
    w = flat(spec.WIDTH * spec.WIDTH, 5, 2, "float32").reshape(spec.WIDTH, spec.WIDTH)
    y = (jnp.arange(spec.TALL * spec.WIDTH, dtype=jnp.int64) % 3 - 1).astype(jnp.float32).reshape(spec.TALL, spec.WIDTH)
    scaled = jax.jit(lambda x, w, y: 2.5 * (x @ w) + 0.5 * y)
    ms, r = timer.median_ms(lambda: scaled(x, w, y), RUNS)
    host = {(i, j): float(r[i, j]) for i, j in spec.SCALED_CHECKED}
    problem = spec.check_entries(np, lambda i, j: host[(i, j)], lambda i, j: spec.scaled_entry(np, i, j),
                                 spec.SCALED_CHECKED)
    record("scaled_matmul/float32_1Mx64", ms, problem)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
