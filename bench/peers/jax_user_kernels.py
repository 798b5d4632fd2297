#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_user_kernels.cpp: seed 003's expression with jnp.where under jax.jit,
alone and chained (* 2 + 1), timed as jax_timing.py times (wall clock around a loop of calls). JAX
has no ElementwiseKernel; jit of the expression is its fused form.

Usage: jax_user_kernels.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0;
exit 1 when a result is wrong."""

import sys

import user_kernels_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

SCRIPT = "jax_user_kernels"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    timer = Timer(jax, spec.WARMUP)
    src = jnp.ones(spec.ELEMENTS * 6, dtype=jnp.uint8)
    copy = jax.jit(lambda a: a + jnp.uint8(0))
    copy_ms, _ = timer.median_ms(lambda: copy(src), 20)
    del src
    x, y = spec.inputs(jnp)

    def plain(a, b):
        return jnp.where(a - 2 > b, a * b, a + b)

    fused, chained = jax.jit(plain), jax.jit(lambda a, b: plain(a, b) * 2 + 1)
    calls = [
        ("seed003/float32_1e8", "jit", False, lambda: fused(x, y)),
        ("seed003_chained/float32_1e8", "jit", True, lambda: chained(x, y)),
    ]
    rows, status = spec.measure(SCRIPT, "jax", device, calls, timer.median_ms, copy_ms, np, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
