"""The moves of bench/bench_cuda_devices.cpp, for its peers: 2 GB of float64 holding 0 .. n-1, moved
from the CPU to GPU 0, back, and from GPU 0 to GPU 1 (where there are two). Each move is timed on
the wall clock from the call to the end of a synchronize, as the C++ benchmark times ndfuse's; the
median over RUNS after one warm-up. The last three values of each result are checked."""

import time

ELEMENTS = 250_000_000  # 2 GB of float64
BYTES = ELEMENTS * 8
RUNS = 3
WORKLOADS = {
    "cpu_to_cuda0": "move/cpu_to_cuda0/2GB",
    "cuda0_to_cpu": "move/cuda0_to_cpu/2GB",
    "cuda0_to_cuda1": "move/cuda0_to_cuda1/2GB",
}


def host_source(np):
    return np.arange(ELEMENTS, dtype=np.float64)


def tail_ok(values):
    """values: the last three elements as a Python list."""
    return [float(v) for v in values] == [ELEMENTS - 3.0, ELEMENTS - 2.0, ELEMENTS - 1.0]


def median_wall_ms(move, sync, runs=RUNS):
    """(median ms, last result) of move() followed by sync(), after one warm-up; the previous result
    is dropped before each timed run so that its memory can be reused."""
    result = move()
    sync()
    times = []
    for _ in range(runs):
        result = None
        sync()
        t0 = time.perf_counter()
        result = move()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2], result


def run(script, library, device, moves, note):
    """moves: {key of WORKLOADS: (variant, move, sync, tail)}; tail(result) gives its last three
    values. Returns (rows, status)."""
    rows, status = [], 0
    for key, variants in moves.items():
        for variant, move, sync, tail in variants:
            workload = WORKLOADS[key]
            try:
                ms, result = median_wall_ms(move, sync)
                ok = tail_ok(tail(result))
            except Exception as e:  # noqa: BLE001 - reported in the row
                note(script, f"{workload} [{variant}]: {type(e).__name__}: {e}")
                rows.append(dict(workload=workload, library=library, variant=variant, device=device,
                                 error=f"{type(e).__name__}: {e}"))
                continue
            row = dict(workload=workload, library=library, variant=variant, median_ms=ms, runs=RUNS,
                       device=device, bytes=BYTES, gbps=BYTES / ms / 1e6)
            if not ok:
                note(script, f"{workload} [{variant}]: wrong values")
                row["error"] = "wrong values"
                status = 1
            rows.append(row)
    return rows, status
