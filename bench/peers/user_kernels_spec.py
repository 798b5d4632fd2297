"""The workloads of bench/bench_cuda_user_kernels.cpp, for its peers: seed 003's kernel
(z = x * y where x - 2 > y, else x + y) over 1e8 float32 with x[i] = (i % 1000) / 100 and y = 3.5,
alone and chained (k(x, y) * 2 + 1); element 7 is checked against NumPy's value."""

ELEMENTS = 100_000_000
CHECK_INDEX = 7
RUNS = 10
WARMUP = 2
BODY = "if (x - 2 > y) { z = x * y; } else { z = x + y; }"


def inputs(xp):
    x = (xp.arange(ELEMENTS) % 1000).astype(xp.float32) / xp.float32(100)
    y = xp.full(ELEMENTS, 3.5, dtype=xp.float32)
    return x, y


def expected(np, chained):
    x = np.float32(CHECK_INDEX % 1000) / np.float32(100)
    y = np.float32(3.5)
    z = x * y if x - np.float32(2) > y else x + y
    return float(z * np.float32(2) + np.float32(1)) if chained else float(z)


def row_of(workload, library, variant, ms, copy_ms, device):
    """A row with x_copy against a copy of the 1.2 GB the workload moves (1.5 arrays copied)."""
    moved = ELEMENTS * 4 * 3
    return dict(workload=workload, library=library, variant=variant, median_ms=ms, runs=RUNS, device=device,
                bytes=moved, gbps=moved / ms / 1e6, x_copy=ms / copy_ms if copy_ms else None)


def measure(script, library, device, calls, median_ms, copy_ms, np, note):
    """Times each (workload, variant, chained, fn) with median_ms(fn, RUNS) -> (ms, result) and
    checks element CHECK_INDEX of the result; returns (rows, status: 1 when a result is wrong)."""
    rows, status = [], 0
    for name, variant, chained, fn in calls:
        try:
            ms, r = median_ms(fn, RUNS)
            row = row_of(name, library, variant, ms, copy_ms, device)
            got, want = float(r[CHECK_INDEX]), expected(np, chained)
            if got != want:
                row["error"] = f"wrong result: element {CHECK_INDEX} is {got}, expected {want}"
                status = 1
        except Exception as e:  # noqa: BLE001 - reported in the row
            note(script, f"{name} [{variant}]: {type(e).__name__}: {e}")
            row = dict(workload=name, library=library, variant=variant, error=f"{type(e).__name__}: {e}",
                       device=device)
        rows.append(row)
    return rows, status
