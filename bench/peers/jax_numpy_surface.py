#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_numpy_surface.cpp: jax.scipy.special.i0, jnp.quantile,
jnp.histogram and jnp.convolve, each under jax.jit, timed as jax_timing.py times.

Usage: jax_numpy_surface.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0;
exit 1 when a result is wrong."""

import sys

import numpy_surface_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

SCRIPT = "jax_numpy_surface"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    timer = Timer(jax, spec.WARMUP)
    x = spec.inputs(jnp, spec.ELEMENTS)
    xq = spec.inputs(jnp, spec.QUANTILE_ELEMENTS)
    xc = spec.inputs(jnp, spec.CONVOLVE_ELEMENTS)
    taps = jnp.full(spec.TAPS, 1 / spec.TAPS, dtype=jnp.float32)
    i0 = jax.jit(jax.scipy.special.i0)
    quantile = jax.jit(lambda a: jnp.quantile(a, 0.3))
    histogram = jax.jit(lambda a: jnp.histogram(a, spec.BINS)[0])
    convolve = jax.jit(lambda a, t: jnp.convolve(a, t, "same"))
    calls = [
        ("i0/float32_1e8", "jit", lambda: i0(x)),
        ("quantile/float32_1e7", "jit", lambda: quantile(xq)),
        ("histogram/float32_1e8", "jit", lambda: histogram(x)),
        ("convolve/float32_1e7_31", "jit", lambda: convolve(xc, taps)),
    ]
    rows, status = spec.measure(SCRIPT, "jax", device, calls, timer.median_ms, np, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
