#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_chains.cpp: the same elementwise chains, sizes and inputs.

Workloads: chain/<dtype>/len<L>/n<N> (chains_spec.py). Variant: jit (jax.jit of the same Python
function; XLA fuses the chain into one kernel, compiled once per length, dtype and size). No copy
rows: JAX has no plain device-to-device copy call to time, so x_copy is left to the report, which
takes the limit from ndfuse's copy in the C++ run.

Protocol (jax_timing.py): wall clock around a loop of calls ended by block_until_ready, the median
over runs after warm-up (which compiles); small arrays measure JAX's per-call dispatch more than the
device. bytes = the array read plus the result written. Four entries of each result are checked
against the chain computed by NumPy.

Usage: jax_chains.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit status
1 when a result is wrong or a call fails.
"""

import sys

import chains_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 1
SCRIPT = "jax_chains"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    timer = Timer(jax, WARMUP)
    rows, status = [], 0
    jitted = {L: jax.jit(spec.chain_function(L, jnp.sin)) for L in spec.LENGTHS}

    for dtype in spec.DTYPES:
        for n in spec.SIZES:
            x = ((jnp.arange(n, dtype=jnp.int64) % 1000) / 1000.0 + 1.0).astype(dtype)
            nbytes = x.size * x.dtype.itemsize
            runs = max(5, spec.runs_for(n) // 3)  # each run is already a loop of calls
            indices = spec.check_indices(n)
            index_array = jnp.asarray(indices, dtype=jnp.int64)
            for L in spec.LENGTHS:
                name = spec.workload(dtype, L, n)
                try:
                    ms, r = timer.median_ms(lambda: jitted[L](x), runs)
                    if r.dtype != x.dtype:
                        raise TypeError(f"result dtype {r.dtype}, expected {x.dtype}")
                    problem = spec.check(np, dtype, L, indices, np.asarray(r[index_array]))
                except Exception as e:  # noqa: BLE001 - reported in the row
                    note(SCRIPT, f"{name} [jit]: {type(e).__name__}: {e}")
                    rows.append(dict(workload=name, library="jax", variant="jit", error=f"{type(e).__name__}: {e}",
                                     device=device))
                    status = 1
                    continue
                row = dict(workload=name, library="jax", variant="jit", median_ms=ms, bytes=2 * nbytes,
                           gbps=2 * nbytes / ms / 1e6, runs=runs, device=device)
                if problem:
                    note(SCRIPT, f"{name} [jit]: wrong result: {problem}")
                    row["error"] = f"wrong result: {problem}"
                    status = 1
                rows.append(row)
                del r
            del x
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
