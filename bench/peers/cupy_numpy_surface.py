#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_numpy_surface.cpp: cp.i0, cp.quantile, cp.histogram and
cp.convolve on the same data, timed as cupy_timing.py times (events, the GPU kept busy).

Usage: cupy_numpy_surface.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0;
exit 1 when a result is wrong."""

import sys

import numpy_surface_spec as spec
from cupy_timing import Timer, load
from peer_output import note, print_table, write_json

SCRIPT = "cupy_numpy_surface"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    cp, np, device = found
    timer = Timer(cp, spec.WARMUP)
    x = spec.inputs(cp, spec.ELEMENTS)
    xq = spec.inputs(cp, spec.QUANTILE_ELEMENTS)
    xc = spec.inputs(cp, spec.CONVOLVE_ELEMENTS)
    taps = cp.full(spec.TAPS, 1 / spec.TAPS, dtype=cp.float32)
    calls = [
        ("i0/float32_1e8", "eager", lambda: cp.i0(x)),
        ("quantile/float32_1e7", "eager", lambda: cp.quantile(xq, 0.3)),
        ("histogram/float32_1e8", "eager", lambda: cp.histogram(x, spec.BINS)[0]),
        ("convolve/float32_1e7_31", "eager", lambda: cp.convolve(xc, taps, "same")),
    ]
    rows, status = spec.measure(SCRIPT, "cupy", device, calls, timer.median_ms, np, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
