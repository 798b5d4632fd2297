#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_fft.cpp: the same transforms, sizes and inputs (fft_spec.py).

Workloads (names match the C++ benchmark):
  fft/complex128_2^24    jnp.fft.fft of 2^24 complex128 values
  rfft/float64_2^24      jnp.fft.rfft of 2^24 float64 values
  fft2/complex64_4096    jnp.fft.fft2 of a 4096 x 4096 complex64 array
Variant: jit (jax.jit of the call: XLA's FFT thunk, cuFFT underneath, plan made at compile).
Protocol (jax_timing.py): wall clock around a loop of calls ended by block_until_ready, the median
over runs after warm-up. GB/s = (input bytes + output bytes) / time. The peak and three zeros of each
transform are checked.

Usage: jax_fft.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit status 1
when a result is wrong.
"""

import sys

import fft_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 2
RUNS = 7
SCRIPT = "jax_fft"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    timer = Timer(jax, WARMUP)

    def tone(n, k, real):
        p = spec.phase(jnp, n, k, jnp.float64)
        return jnp.cos(p) if real else jnp.cos(p) + 1j * jnp.sin(p)

    rows, status = [], 0
    for name in spec.WORKLOADS:
        if name.startswith("fft/"):
            x, fn = tone(spec.N1, spec.K0, False), jnp.fft.fft
        elif name.startswith("rfft/"):
            x, fn = tone(spec.N1, spec.K0, True), jnp.fft.rfft
        else:
            x = (tone(spec.SIDE, spec.K0, False)[:, None] * tone(spec.SIDE, spec.K1, False)[None, :]).astype(
                jnp.complex64)
            fn = jnp.fft.fft2
        jitted = jax.jit(fn)
        ms, r = timer.median_ms(lambda: jitted(x), RUNS)
        problem = spec.wrong(name, lambda i: complex(r[i]))
        nbytes = spec.expectations(name)[0]
        row = dict(workload=name, library="jax", variant="jit", median_ms=ms, bytes=nbytes, gbps=nbytes / ms / 1e6,
                   runs=RUNS, device=device)
        if problem:
            note(SCRIPT, f"{name}: wrong result: {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)
        del x, r
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
