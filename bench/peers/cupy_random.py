#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_random.cpp: cupy.random's legacy functions (RandomState, cuRAND's
XORWOW) and cupy.random.default_rng() (Generator over XORWOW), the same sizes, timed the same way
(cupy_timing.py). x_write_limit: the time over half a device-to-device copy of the bytes written.

Usage: cupy_random.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0; exit 1
when a result's moments are off."""

import sys

import random_spec as spec
from cupy_timing import Timer, load
from peer_output import note, write_json


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("cupy_random", out_path)
    if not found:
        return 0
    cp, np, device = found
    timer = Timer(cp, spec.WARMUP)
    stream = cp.cuda.get_current_stream()
    nbytes = spec.ELEMENTS * 8
    src, dst = cp.ones(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
    rt = cp.cuda.runtime
    copy_ms, _ = timer.median_ms(lambda: rt.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes,
                                                         rt.memcpyDeviceToDevice, stream.ptr), 20)
    del src, dst
    cp.get_default_memory_pool().free_all_blocks()
    rows = [dict(workload="d2d_copy/2GB", library="cupy", variant="copy", median_ms=copy_ms, device=device,
                 runs=20)]
    rs = cp.random.RandomState(1)
    gen = cp.random.default_rng(1)
    calls = {
        "random/float64_2GB": [("eager", lambda: rs.random_sample(spec.CUBE)),
                               ("generator", lambda: gen.random(spec.CUBE))],
        "random/float32_1GB": [("eager", lambda: rs.random_sample(spec.ELEMENTS, dtype=cp.float32)),
                               ("generator", lambda: gen.random(spec.ELEMENTS, dtype=cp.float32))],
        "standard_normal/float64_2GB": [("eager", lambda: rs.standard_normal(spec.ELEMENTS)),
                                        ("generator", lambda: gen.standard_normal(spec.ELEMENTS))],
        "sum_standard_normal/float64_2.5e8": [("eager", lambda: cp.sum(rs.standard_normal(spec.ELEMENTS)))],
        "standard_gamma/float64_0.8GB": [("eager", lambda: rs.standard_gamma(2.0, spec.COUNTS)),
                                         ("generator", lambda: gen.standard_gamma(2.0, spec.COUNTS))],
        "poisson/int64_0.8GB": [("eager", lambda: rs.poisson(10.0, spec.COUNTS)),
                                ("generator", lambda: gen.poisson(10.0, spec.COUNTS))],
    }
    status = 0
    for name, variants in calls.items():
        for variant, fn in variants:
            try:
                ms, r = timer.median_ms(fn, spec.RUNS)
                if r.ndim == 0:
                    problem = spec.check(name, float(r), None)
                else:
                    x = r.astype(cp.float64)
                    problem = spec.check(name, float(x.mean()), float(x.std()))
                    del x
                row = spec.row(name, "cupy", variant, ms, copy_ms, device, spec.RUNS)
                if problem:
                    row["error"] = "wrong result: " + problem
                    status = 1
            except Exception as e:  # noqa: BLE001 - a variant this CuPy lacks
                note("cupy_random", f"{name} [{variant}]: {type(e).__name__}: {e}")
                row = dict(workload=name, library="cupy", variant=variant, error=f"{type(e).__name__}: {e}",
                           device=device)
            rows.append(row)
            r = None
            cp.get_default_memory_pool().free_all_blocks()
    spec.print_rows(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
