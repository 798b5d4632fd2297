#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_seed.cpp: the seed chain, host time per step, first-call compile and
2 GB transfers, with the same inputs.

Workloads (names match the C++ benchmark, without its fused/eager part):
  d2d_copy/float64_2GB, d2d_copy/float32_1GB   the copy of the array's bytes (the limit)
  seed/float64_2GB, seed/float32_1GB           x *= 5; x *= x; x += x on 2.5e8 values: eager (three
                                               in-place CuPy calls), elementwise_kernel (one in-place
                                               kernel), fuse (cupy.fuse of 2 (5 x)^2, out of place)
  host_step_1000                               the same chain on 1000 float64, wall time per step
                                               over 2000 steps and one synchronize
  compile/cold_nvrtc                           the first call of a new ElementwiseKernel / cupy.fuse
                                               (CuPy's compile, or its disk cache when warm)
  transfer_2GB/host_to_device, device_to_host  ndarray.set / ndarray.get(out=) with pageable host memory
Protocol (bench/README.md): each timed run restores x from a pristine copy (a 2 GB device copy that
also keeps the GPU busy while Python enqueues), cupy.cuda.Event records around the chain, the median
over the runs after warm-up; host_step and transfers are wall clock. x[7] is checked against NumPy.

Usage: cupy_seed.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0. Exit status
1 when a result is wrong or the eager variant fails.
"""

import sys
import time

import seed_spec as spec
from cupy_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 2
RUNS = 20
TRANSFER_RUNS = 3
SCRIPT = "cupy_seed"


class RestoringTimer(Timer):
    """cupy_timing's Timer whose work ahead of each run also restores the input from a pristine
    copy, as the C++ benchmark does (the 2 GB copy keeps the GPU busy too)."""

    restore = None

    def keep_gpu_busy(self):
        super().keep_gpu_busy()
        if self.restore:
            self.restore()


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    cp, np, device = found
    print(f"{SCRIPT}: CuPy {cp.__version__} on {device}")
    pool = cp.get_default_memory_pool()
    rows, status = [], 0

    def row(workload, variant, ms, runs, nbytes=None, **extra):
        r = dict(workload=workload, library="cupy", variant=variant, median_ms=ms, runs=runs, device=device)
        if nbytes:
            r.update(bytes=nbytes, gbps=nbytes / ms / 1e6)
        r.update(extra)
        rows.append(r)
        return r

    def in_place(x):
        x *= 5
        x *= x
        x += x
        return x

    kernel = cp.ElementwiseKernel("T a", "T x", "T y = a * (T)5; y = y * y; x = y + y;", "bench_seed_chain")

    def seed_fn(x):
        return spec.seed_chain(x)

    fused = cp.fuse(seed_fn)

    timer = RestoringTimer(cp, WARMUP)
    for dtype, size_name in spec.CASES:
        x = ((cp.arange(spec.SEED_ELEMENTS) % 1000) / 1000.0 + 1.0).astype(dtype)
        pristine = x.copy()
        nbytes = x.nbytes
        copy_ms, _ = timer.median_ms(lambda: cp.copyto(x, pristine), RUNS)
        row(f"d2d_copy/{size_name}", "copy", copy_ms, RUNS, 2 * nbytes, x_copy=1.0)
        want = spec.expected(np, dtype)
        timer.restore = lambda: cp.copyto(x, pristine)
        name = f"seed/{size_name}"
        for variant, fn in (("eager", lambda: in_place(x)), ("elementwise_kernel", lambda: kernel(x, x)),
                            ("fuse", lambda: fused(x))):
            try:
                ms, r = timer.median_ms(fn, RUNS)
                problem = spec.wrong(float(r[spec.CHECK_INDEX]), want, dtype)
                del r
            except Exception as e:  # noqa: BLE001 - a fused variant CuPy cannot build is noted
                note(SCRIPT, f"{name} [{variant}]: {type(e).__name__}: {e}")
                rows.append(dict(workload=name, library="cupy", variant=variant, error=f"{type(e).__name__}: {e}",
                                 device=device))
                status = status if variant != "eager" else 1
                continue
            added = row(name, variant, ms, RUNS, 2 * nbytes, x_copy=ms / copy_ms)
            if problem:
                note(SCRIPT, f"{name} [{variant}]: wrong result: {problem}")
                added["error"] = f"wrong result: {problem}"
                status = 1
        timer.restore = None
        del x, pristine
        pool.free_all_blocks()

    # Host time per step on 1000 float64 (values overflow to inf over 2000 steps; the time does not care).
    small = ((cp.arange(spec.SMALL_ELEMENTS) % 1000) / 1000.0 + 1.0).astype(cp.float64)
    for variant, fn in (("eager", lambda: in_place(small)), ("elementwise_kernel", lambda: kernel(small, small)),
                        ("fuse", lambda: fused(small))):
        for _ in range(100):
            fn()
        cp.cuda.Device().synchronize()
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(spec.HOST_STEPS):
                fn()
            cp.cuda.Device().synchronize()
            times.append((time.perf_counter() - t0) * 1e3 / spec.HOST_STEPS)
        times.sort()
        host_us = spec.host_us_per_step(fn, cp.cuda.Device().synchronize)
        row("host_step_1000", variant, times[2], 5, us_per_step=1e3 * times[2], host_us_per_step=host_us)

    # First call of a kernel neither CuPy's memory nor its disk cache holds (a fresh name in its source).
    probe = cp.ones(spec.SMALL_ELEMENTS)
    stamp = time.time_ns()
    fresh = cp.ElementwiseKernel("T a", "T x", "T y = a * (T)5; y = y * y; x = y + y;", f"bench_seed_cold_{stamp}")
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    fresh(probe, probe)
    cp.cuda.Device().synchronize()
    row("compile/cold_nvrtc", "elementwise_kernel", (time.perf_counter() - t0) * 1e3, 1)

    # 2 GB transfers between pageable host memory and the device.
    host = spec.transfer_pattern(np)
    dev = cp.empty(spec.TRANSFER_BYTES, dtype=cp.uint8)
    for direction in ("host_to_device", "device_to_host"):
        times = []
        for i in range(TRANSFER_RUNS + 1):
            t0 = time.perf_counter()
            if direction == "host_to_device":
                dev.set(host)
                cp.cuda.Device().synchronize()
            else:
                dev.get(out=host)
            if i:
                times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        row(f"transfer_2GB/{direction}", "eager", times[len(times) // 2], TRANSFER_RUNS, spec.TRANSFER_BYTES)
    if host[12345] != np.uint8((12345 * 7 + 1) % 256):
        note(SCRIPT, "transfer corrupted data")
        status = 1
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
