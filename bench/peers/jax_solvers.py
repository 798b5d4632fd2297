#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_solvers.cpp: the same solvers, inputs and sizes (solvers_spec.py).

Workloads (names match the C++ benchmark): svd, svdvals, inv, solve (1 and 1000 right-hand sides),
eigh, cholesky, qr and det of 1000 x 1000 float64 matrices; inv, eigh, cholesky and svd of a stack of
10000 8 x 8 ones. Variant: jit (jax.jit of the jnp.linalg call; svdvals is svd(compute_uv=False)).
JAX does not check LAPACK's info codes (a singular input gives NaNs), so it never waits for the
device inside a call; ndfuse and PyTorch do.

Protocol (jax_timing.py): wall clock around a loop of calls ended by block_until_ready, the median
over runs after warm-up (which compiles). The residuals of svd, inv and solve are checked against a
loose bound.

Usage: jax_solvers.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit status
1 when a call fails or a residual is too large.
"""

import sys

import solvers_spec as spec
from jax_timing import Timer, load
from peer_output import print_table, timed_row, write_json

WARMUP = 1
RUNS = 5
SCRIPT = "jax_solvers"


def jitted_call(jax, fn):
    """jax.jit of fn(inputs): one compiled call per workload (a closure, not a default argument)."""
    return jax.jit(lambda inputs: fn(inputs))


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    timer = Timer(jax, WARMUP)
    la = jnp.linalg
    n = spec.N

    def pattern(count):
        i = jnp.arange(count, dtype=jnp.int64)
        return ((i * 7919 + 13) % 10007).astype(jnp.float64) / 10007.0 - 0.5

    eye = jnp.eye(n, dtype=jnp.float64)
    eye8 = jnp.eye(spec.SIDE, dtype=jnp.float64)
    a = pattern(n * n).reshape(n, n) + 4.0 * eye
    stack = pattern(spec.STACK * spec.SIDE**2).reshape(spec.STACK, spec.SIDE, spec.SIDE) + 4.0 * eye8
    m = dict(a=a, spd=a @ a.T + n * eye, b1=jnp.ones(n, dtype=jnp.float64), bn=jnp.ones((n, n), dtype=jnp.float64),
             stack=stack, spd_stack=stack @ jnp.swapaxes(stack, -1, -2) + 8.0 * eye8)
    m["stack_b"] = jnp.ones((spec.STACK, spec.SIDE, 1), dtype=jnp.float64)
    k = spec.SIDE_LARGE
    eye32 = jnp.eye(k, dtype=jnp.float64)
    stack32 = pattern(spec.STACK * k * k).reshape(spec.STACK, k, k) + 4.0 * eye32
    m["spd_stack32"] = stack32 @ jnp.swapaxes(stack32, -1, -2) + float(k) * eye32

    def residual(name, r):
        if name == "svd/float64_1000":
            u, s, vh = r
            return float(la.norm((u * s) @ vh - a) / la.norm(a))
        if name == "inv/float64_1000":
            return float(la.norm(a @ r - eye) / n**0.5)
        if name == "solve/float64_10000x8x8":
            return float(la.norm(stack @ r - m["stack_b"]) / la.norm(m["stack_b"]))
        if name.startswith("solve/"):
            b = m["b1"] if r.ndim == 1 else m["bn"]
            return float(la.norm(a @ r - b) / la.norm(b))
        return None

    rows, status = [], 0
    for name, fn in spec.calls(la, lambda x: la.svd(x, compute_uv=False)).items():
        jitted = jitted_call(jax, fn)
        row, ok = timed_row(SCRIPT, name, "jax", "jit", device, RUNS, lambda: timer.median_ms(lambda: jitted(m), RUNS),
                            lambda r: spec.residual_check(residual(name, r)))
        rows.append(row)
        status = status if ok else 1
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
