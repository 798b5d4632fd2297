"""The workloads of bench/bench_cuda_random.cpp, shared by its peers: names, bytes written, the
expected moments of the values, and the check every peer's result must pass."""

import math

ELEMENTS = 250_000_000  # 2 GB of float64, 1 GB of float32
COUNTS = 100_000_000  # gamma and Poisson variates
CUBE = (1000, 500, 500)
RUNS = 10
WARMUP = 2

# name: (bytes written, mean, standard deviation); the fused sum writes only a scalar.
WORKLOADS = {
    "random/float64_2GB": (ELEMENTS * 8, 0.5, math.sqrt(1 / 12)),
    "random/float32_1GB": (ELEMENTS * 4, 0.5, math.sqrt(1 / 12)),
    "standard_normal/float64_2GB": (ELEMENTS * 8, 0.0, 1.0),
    "sum_standard_normal/float64_2.5e8": (0, 0.0, math.sqrt(ELEMENTS)),
    "standard_gamma/float64_0.8GB": (COUNTS * 8, 2.0, math.sqrt(2.0)),
    "poisson/int64_0.8GB": (COUNTS * 8, 10.0, math.sqrt(10.0)),
}


def check(name, mean, sd):
    """None, or what is wrong with a result of these moments (a scalar result: sd None)."""
    written, m, s = WORKLOADS[name]
    if written == 0:
        return None if abs(mean - m) <= 6 * s else f"sum {mean}, expected within 6 sd of {m}"
    if abs(mean - m) > 1e-3 or abs(sd - s) > 1e-3:
        return f"mean {mean} sd {sd}, expected {m} and {s}"
    return None


def row(name, library, variant, ms, copy_2gb_ms, device, runs):
    """A result row; the write limit of N bytes is half a copy of N bytes, scaled from the 2 GB copy."""
    written = WORKLOADS[name][0]
    r = dict(workload=name, library=library, variant=variant, median_ms=ms, runs=runs, device=device)
    if written:
        write_ms = copy_2gb_ms * written / (ELEMENTS * 8) / 2
        r.update(bytes=written, gbps=written / ms / 1e6, x_write_limit=ms / write_ms)
    return r


def print_rows(rows):
    """The plain table every peer prints beside its JSON."""
    for r in rows:
        print(f"{r['workload']:<36} {r['variant']:<10} {r.get('median_ms', float('nan')):>9.3f} ms"
              f"  x_write_limit {r.get('x_write_limit', float('nan')):.3f}  {r.get('error', '')}")
