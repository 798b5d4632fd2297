#!/usr/bin/env python3
"""JAX peer of bench/bench_cuda_devices.cpp (devices_spec.py): jax.device_put of a NumPy array to
GPU 0, jax.device_get back, and jax.device_put of an array on GPU 0 to GPU 1.

Usage: jax_devices.py [OUT.json]. Without JAX or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong."""

import sys

import devices_spec as spec
from jax_timing import load
from peer_output import note, print_table, write_json

SCRIPT = "jax_devices"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    jax, _, np, device = found
    print(f"{SCRIPT}: JAX {jax.__version__} on {device}")
    gpus = jax.devices("gpu")
    host = spec.host_source(np)
    on_gpu = jax.block_until_ready(jax.device_put(host, gpus[0]))
    state = {"last": None}

    def put(source, target):
        state["last"] = jax.device_put(source, target)
        return state["last"]

    def sync():
        if state["last"] is not None and not isinstance(state["last"], np.ndarray):
            jax.block_until_ready(state["last"])

    # device_get keeps the host copy it made on the array and returns it again the next time, so
    # each get reads a fresh array: copies made ahead, one per call (a warm-up and the runs).
    fresh = [jax.block_until_ready(on_gpu + 0.0) for _ in range(spec.RUNS + 1)]

    def get():
        state["last"] = None
        return jax.device_get(fresh.pop())

    tail = lambda a: np.asarray(a[-3:]).tolist()  # noqa: E731
    moves = {
        "cpu_to_cuda0": [("device_put", lambda: put(host, gpus[0]), sync, tail)],
        "cuda0_to_cpu": [("device_get", get, sync, tail)],
    }
    if len(gpus) >= 2:
        moves["cuda0_to_cuda1"] = [("device_put", lambda: put(on_gpu, gpus[1]), sync, tail)]
    rows, status = spec.run(SCRIPT, "jax", device, moves, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
