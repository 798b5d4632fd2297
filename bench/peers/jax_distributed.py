#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_distributed.cpp: a sum over every GPU of one process, jax.lax.psum
under shard_map over a one-axis mesh of the GPUs (XLA lowers it to NCCL's all_reduce), float32 arrays of 1 MB to 1 GB per GPU. The wall
clock around the call and block_until_ready, the median of RUNS runs after the compiling warm-up.
GPU r holds r + 1; every element of the sum must be n (n + 1) / 2.

Usage: jax_distributed.py [OUT.json]. Without JAX or two GPUs it notes so, writes [] and exits 0.
Exit status 1 when a result is wrong."""

import sys
import time

from peer_output import note, print_table, write_json

SCRIPT = "jax_distributed"
SIZES_MB = [1, 4, 16, 64, 256, 1024]
RUNS = 5


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    try:
        import jax
        import jax.numpy as jnp

        gpus = jax.devices("gpu")
        if len(gpus) < 2:
            raise RuntimeError(f"{len(gpus)} GPU")
    except Exception as e:  # noqa: BLE001 - ImportError, no GPU backend, fewer than two GPUs
        note(SCRIPT, f"JAX with two GPUs is missing ({type(e).__name__}: {e}); nothing measured")
        write_json(out_path, [])
        return 0
    n = len(gpus)
    print(f"{SCRIPT}: JAX {jax.__version__}, {n} GPUs")
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    try:
        shard_map = jax.shard_map
    except AttributeError:  # JAX before 0.7
        from jax.experimental.shard_map import shard_map
    mesh = Mesh(gpus, ("ranks",))
    rows_of_ranks = NamedSharding(mesh, PartitionSpec("ranks"))
    total = jax.jit(shard_map(lambda x: jax.lax.psum(x, "ranks"), mesh=mesh, in_specs=PartitionSpec("ranks"),
                              out_specs=PartitionSpec("ranks")))
    rows = []
    for mb in SIZES_MB:
        elements = (mb << 20) // 4
        # Row r on GPU r, made there: the (n, elements) array is never whole on one device.
        parts = [jax.device_put(jnp.full((1, elements), r + 1, dtype=jnp.float32), gpus[r]) for r in range(n)]
        x = jax.make_array_from_single_device_arrays((n, elements), rows_of_ranks, parts)
        y = total(x).block_until_ready()
        times = []
        for _ in range(RUNS):
            y = None
            t0 = time.perf_counter()
            y = total(x).block_until_ready()
            times.append((time.perf_counter() - t0) * 1e3)
        want = n * (n + 1) / 2
        ok = all(float(y[r, 0]) == want and float(y[r, -1]) == want for r in range(n))
        times.sort()
        ms = times[len(times) // 2]
        algbw = (mb << 20) / ms / 1e6
        rows.append(dict(workload=f"all_reduce/float32/{mb}MB", library="jax", variant="shard_map_psum", median_ms=ms,
                         runs=RUNS, bytes=mb << 20, gbps=algbw * 2 * (n - 1) / n, algbw=algbw, ranks=n,
                         device=gpus[0].device_kind, **({} if ok else {"error": "wrong values"})))
    print_table(rows)
    write_json(out_path, rows)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
