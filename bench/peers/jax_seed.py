#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_seed.cpp: the seed chain, host time per step, first-call compile and
2 GB transfers, with the same inputs.

Workloads (names match the C++ benchmark, without its fused/eager part):
  seed/float64_2GB, seed/float32_1GB           jax.jit of 2 (5 x)^2 written as the three steps (JAX
                                               arrays are immutable: out of place, one fused kernel)
  host_step_1000                               the same jitted chain on 1000 float64, y = f(y) 2000
                                               times and one block_until_ready, wall time per step
  compile/cold_nvrtc                           jax.jit's first call of the chain (trace and XLA compile)
  transfer_2GB/host_to_device, device_to_host  jax.device_put of pageable host memory, and np.asarray
                                               of a device array not yet read (JAX caches a read)
Protocol (jax_timing.py): wall clock around a loop of calls ended by block_until_ready, the median over
runs after warm-up. x[7] is checked against NumPy.

Usage: jax_seed.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit status 1
when a result is wrong or a call fails.
"""

import sys
import time

import seed_spec as spec
from jax_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 2
RUNS = 7
TRANSFER_RUNS = 3
SCRIPT = "jax_seed"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, jnp, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    timer = Timer(jax, WARMUP)
    rows, status = [], 0

    def row(workload, ms, runs, nbytes=None, **extra):
        r = dict(workload=workload, library="jax", variant="jit", median_ms=ms, runs=runs, device=device)
        if nbytes:
            r.update(bytes=nbytes, gbps=nbytes / ms / 1e6)
        r.update(extra)
        rows.append(r)
        return r

    chain = jax.jit(spec.seed_chain)
    small = (jnp.arange(spec.SMALL_ELEMENTS, dtype=jnp.int64) % 1000) / 1000.0 + 1.0
    ms, _ = timer.first_call_ms(lambda: chain(small))
    row("compile/cold_nvrtc", ms, 1)

    for dtype, size_name in spec.CASES:
        name = f"seed/{size_name}"
        x = ((jnp.arange(spec.SEED_ELEMENTS, dtype=jnp.int64) % 1000) / 1000.0 + 1.0).astype(dtype)
        nbytes = x.size * x.dtype.itemsize
        try:
            ms, r = timer.median_ms(lambda: chain(x), RUNS)
            problem = spec.wrong(float(r[spec.CHECK_INDEX]), spec.expected(np, dtype), dtype)
            del r
        except Exception as e:  # noqa: BLE001 - reported in the row
            note(SCRIPT, f"{name}: {type(e).__name__}: {e}")
            rows.append(dict(workload=name, library="jax", variant="jit", error=f"{type(e).__name__}: {e}",
                             device=device))
            status = 1
            continue
        added = row(name, ms, RUNS, 2 * nbytes)
        if problem:
            note(SCRIPT, f"{name}: wrong result: {problem}")
            added["error"] = f"wrong result: {problem}"
            status = 1
        del x

    # Host time per step on 1000 float64: each step's result feeds the next, as x *= ... does.
    y = small
    for _ in range(100):
        y = chain(y)
    jax.block_until_ready(y)
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(spec.HOST_STEPS):
            y = chain(y)
        jax.block_until_ready(y)
        times.append((time.perf_counter() - t0) * 1e3 / spec.HOST_STEPS)
    times.sort()
    state = [y]

    def step():
        state[0] = chain(state[0])

    host_us = spec.host_us_per_step(step, lambda: jax.block_until_ready(state[0]))
    row("host_step_1000", times[2], 5, us_per_step=1e3 * times[2], host_us_per_step=host_us)

    # 2 GB transfers; every read is of a fresh device array, since JAX keeps the host copy it made.
    host = spec.transfer_pattern(np)
    for direction in ("host_to_device", "device_to_host"):
        times = []
        for i in range(TRANSFER_RUNS + 1):
            if direction == "host_to_device":
                t0 = time.perf_counter()
                dev = jax.block_until_ready(jax.device_put(host))
            else:
                fresh = jax.block_until_ready(jnp.copy(dev))
                t0 = time.perf_counter()
                back = np.asarray(fresh)
            if i:
                times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        row(f"transfer_2GB/{direction}", times[len(times) // 2], TRANSFER_RUNS, spec.TRANSFER_BYTES)
    if back[12345] != (12345 * 7 + 1) % 256:
        note(SCRIPT, "transfer corrupted data")
        status = 1
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
