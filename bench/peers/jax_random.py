#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_random.cpp: jax.random.uniform and jax.random.normal (threefry2x32,
JAX's default key) jitted, and the sum of normals in one jitted function, the same sizes, timed as
jax_timing.py times (wall clock over a loop of calls). x_write_limit: the time over half a jitted
copy of 2 GB, scaled to the bytes written.

Usage: jax_random.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0; exit 1 when
a result's moments are off."""

import sys

import random_spec as spec
from jax_timing import Timer, load
from peer_output import note, write_json


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("jax_random", out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    timer = Timer(jax, spec.WARMUP)
    src = jnp.ones(spec.ELEMENTS, jnp.float64)
    copy = jax.jit(lambda x: jnp.copy(x) + 0.0)
    copy_ms, _ = timer.median_ms(lambda: copy(src), 10)
    del src
    rows = [dict(workload="d2d_copy/2GB", library="jax", variant="copy", median_ms=copy_ms, device=device, runs=10)]
    key = jax.random.key(1)
    f64, f32 = jnp.float64, jnp.float32
    uniform64 = jax.jit(lambda k: jax.random.uniform(k, spec.CUBE, f64))
    uniform32 = jax.jit(lambda k: jax.random.uniform(k, (spec.ELEMENTS,), f32))
    normal64 = jax.jit(lambda k: jax.random.normal(k, (spec.ELEMENTS,), f64))
    sum_normal = jax.jit(lambda k: jnp.sum(jax.random.normal(k, (spec.ELEMENTS,), f64)))
    gamma = jax.jit(lambda k: jax.random.gamma(k, 2.0, (spec.COUNTS,), f64))
    poisson = jax.jit(lambda k: jax.random.poisson(k, 10.0, (spec.COUNTS,)))
    calls = {
        "random/float64_2GB": lambda: uniform64(key),
        "random/float32_1GB": lambda: uniform32(key),
        "standard_normal/float64_2GB": lambda: normal64(key),
        "sum_standard_normal/float64_2.5e8": lambda: sum_normal(key),
        "standard_gamma/float64_0.8GB": lambda: gamma(key),
        "poisson/int64_0.8GB": lambda: poisson(key),
    }
    status = 0
    for name, fn in calls.items():
        try:
            ms, r = timer.median_ms(fn, spec.RUNS)
            if r.ndim == 0:
                problem = spec.check(name, float(r), None)
            else:
                x = r.astype(f64)
                problem = spec.check(name, float(jnp.mean(x)), float(jnp.std(x)))
                del x
            row = spec.row(name, "jax", "jit", ms, copy_ms, device, spec.RUNS)
            if problem:
                row["error"] = "wrong result: " + problem
                status = 1
        except Exception as e:  # noqa: BLE001
            note("jax_random", f"{name}: {type(e).__name__}: {e}")
            row = dict(workload=name, library="jax", variant="jit", error=f"{type(e).__name__}: {e}", device=device)
            status = 1
        rows.append(row)
        r = None
    spec.print_rows(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
