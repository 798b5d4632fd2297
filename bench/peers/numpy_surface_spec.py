"""The workloads of bench/bench_cuda_numpy_surface.cpp, for its peers: NumPy functions written in
Python over ufuncs and sorts (i0, quantile, histogram, convolve) on float32 data
x[i] = (i % 1000) / 100 - 5; each result is checked against NumPy's answer on the host."""

ELEMENTS = 100_000_000          # i0 and histogram
QUANTILE_ELEMENTS = 10_000_000  # torch.quantile takes at most 2**24 elements
CONVOLVE_ELEMENTS = 10_000_000
TAPS = 31
BINS = 100
RUNS = 10
WARMUP = 2


def inputs(xp, n):
    return (xp.arange(n) % 1000).astype(xp.float32) / xp.float32(100) - xp.float32(5)


def expected(np, name):
    """The checked value of each workload, computed by NumPy in float64 on a small equivalent."""
    x = ((np.arange(6000) % 1000) / 100 - 5).astype(np.float32)
    if name.startswith("i0"):
        return float(np.i0(np.float64(x[7])))
    if name.startswith("quantile"):
        # every level appears n / 1000 times: the quantile of the levels' repeated grid
        levels = np.sort(x[:1000])
        n = QUANTILE_ELEMENTS
        v = 0.3 * (n - 1)
        lo, hi = int(np.floor(v)), int(np.floor(v)) + 1
        a, b = float(levels[lo * 1000 // n]), float(levels[hi * 1000 // n])
        return a + (b - a) * (v - lo)
    if name.startswith("histogram"):
        return float(ELEMENTS)  # the counts' total: every value is inside the range
    if name.startswith("convolve"):
        centre = 5000  # 'same': output i sums x[i - 15 .. i + 15] / 31
        return float(np.sum(x[centre - TAPS // 2:centre + TAPS // 2 + 1].astype(np.float64)) / TAPS)
    raise KeyError(name)


def checked(name, result, np):
    """The value the workload's result yields for the check (element 7, the quantile, the counts'
    total, output 5000)."""
    if name.startswith("i0"):
        return float(result[7])
    if name.startswith("quantile"):
        return float(result)
    if name.startswith("histogram"):
        return float(result.sum())
    return float(result[5000])


def measure(script, library, device, calls, median_ms, np, note):
    """Times each (workload, variant, fn) with median_ms(fn, RUNS) -> (ms, result); checks it to
    1e-4 relative. Returns (rows, status: 1 when a result is wrong)."""
    rows, status = [], 0
    for name, variant, fn in calls:
        try:
            ms, r = median_ms(fn, RUNS)
            row = dict(workload=name, library=library, variant=variant, median_ms=ms, runs=RUNS, device=device)
            got, want = checked(name, r, np), expected(np, name)
            if abs(got - want) > 1e-4 * max(1.0, abs(want)):
                row["error"] = f"wrong result: {got}, expected {want}"
                status = 1
        except Exception as e:  # noqa: BLE001 - reported in the row
            note(script, f"{name} [{variant}]: {type(e).__name__}: {e}")
            row = dict(workload=name, library=library, variant=variant, error=f"{type(e).__name__}: {e}",
                       device=device)
        rows.append(row)
    return rows, status
