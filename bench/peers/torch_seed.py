#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_seed.cpp: the seed chain, host time per step, first-call compile
and 2 GB transfers, with the same inputs.

Workloads (names match the C++ benchmark, without its fused/eager part):
  d2d_copy/float64_2GB, d2d_copy/float32_1GB   Tensor.copy_ of the array's bytes (the limit)
  seed/float64_2GB, seed/float32_1GB           x.mul_(5); x.mul_(x); x.add_(x) on 2.5e8 values:
                                               eager (three kernels) and compile (torch.compile of
                                               the same in-place function)
  host_step_1000                               the same chain on 1000 float64, wall time per step
                                               over 2000 steps and one synchronize
  compile/cold_nvrtc                           torch.compile's first call of the chain (trace, Inductor
                                               and Triton compile; their disk caches may be warm)
  transfer_2GB/host_to_device, device_to_host  Tensor.copy_ between pageable host memory and the device
Protocol (torch_timing.py): each timed run restores x from a pristine copy (a 2 GB device copy ahead
of a 512 MiB busy copy), torch.cuda.Event records around the chain, the median over the runs after
warm-up; host_step and transfers are wall clock. x[7] is checked against NumPy.

Usage: torch_seed.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong or the eager variant fails.
"""

import sys
import time

import seed_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import Timer, allow_recompiles, load

WARMUP = 2
RUNS = 20
TRANSFER_RUNS = 3
SCRIPT = "torch_seed"


def seed_in_place(x):
    x.mul_(5)
    x.mul_(x)
    x.add_(x)
    return x


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    allow_recompiles(torch)
    timer = Timer(torch, WARMUP)
    rows, status = [], 0

    def row(workload, variant, ms, runs, nbytes=None, **extra):
        r = dict(workload=workload, library="torch", variant=variant, median_ms=ms, runs=runs, device=device)
        if nbytes:
            r.update(bytes=nbytes, gbps=nbytes / ms / 1e6)
        r.update(extra)
        rows.append(r)
        return r

    compiled = torch.compile(seed_in_place)

    # The first compiled call, on a small array: what compiling the chain costs.
    small = torch.arange(spec.SMALL_ELEMENTS, device="cuda", dtype=torch.float64) % 1000 / 1000.0 + 1.0
    try:
        ms, _ = timer.first_call_ms(lambda: compiled(small))
        row("compile/cold_nvrtc", "compile", ms, 1)
    except Exception as e:  # noqa: BLE001 - torch.compile unavailable: noted, the eager rows still run
        note(SCRIPT, f"torch.compile failed: {type(e).__name__}: {e}")
        compiled = None

    for dtype, size_name in spec.CASES:
        x = (torch.arange(spec.SEED_ELEMENTS, device="cuda", dtype=torch.float64) % 1000 / 1000.0 + 1.0).to(
            getattr(torch, dtype))
        pristine = x.clone()
        nbytes = x.numel() * x.element_size()
        copy_ms, _ = timer.median_ms(lambda: x.copy_(pristine), RUNS)
        row(f"d2d_copy/{size_name}", "copy", copy_ms, RUNS, 2 * nbytes, x_copy=1.0)
        want = spec.expected(np, dtype)
        name = f"seed/{size_name}"
        variants = [("eager", lambda: seed_in_place(x))]
        if compiled:
            variants.append(("compile", lambda: compiled(x)))
        for variant, fn in variants:
            try:
                ms, r = timer.median_ms(fn, RUNS, before=lambda: x.copy_(pristine))
                problem = spec.wrong(float(r[spec.CHECK_INDEX]), want, dtype)
                del r
            except Exception as e:  # noqa: BLE001 - a compile failure is noted
                note(SCRIPT, f"{name} [{variant}]: {type(e).__name__}: {e}")
                rows.append(dict(workload=name, library="torch", variant=variant, error=f"{type(e).__name__}: {e}",
                                 device=device))
                status = status if variant != "eager" else 1
                continue
            added = row(name, variant, ms, RUNS, 2 * nbytes, x_copy=ms / copy_ms)
            if problem:
                note(SCRIPT, f"{name} [{variant}]: wrong result: {problem}")
                added["error"] = f"wrong result: {problem}"
                status = 1
        del x, pristine
        torch.cuda.empty_cache()

    # Host time per step on 1000 float64 (values overflow to inf over 2000 steps; the time does not care).
    variants = [("eager", lambda: seed_in_place(small))]
    if compiled:
        variants.append(("compile", lambda: compiled(small)))
    for variant, fn in variants:
        ms = timer.wall_ms_per_call(fn, spec.HOST_STEPS)
        host_us = spec.host_us_per_step(fn, torch.cuda.synchronize)
        row("host_step_1000", variant, ms, 5, us_per_step=1e3 * ms, host_us_per_step=host_us)

    # 2 GB transfers between pageable host memory and the device.
    host = torch.from_numpy(spec.transfer_pattern(np))
    dev = torch.empty(spec.TRANSFER_BYTES, dtype=torch.uint8, device="cuda")
    for direction in ("host_to_device", "device_to_host"):
        times = []
        for i in range(TRANSFER_RUNS + 1):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            if direction == "host_to_device":
                dev.copy_(host)
            else:
                host.copy_(dev)
            torch.cuda.synchronize()
            if i:
                times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        row(f"transfer_2GB/{direction}", "eager", times[len(times) // 2], TRANSFER_RUNS, spec.TRANSFER_BYTES)
    if int(host[12345]) != (12345 * 7 + 1) % 256:
        note(SCRIPT, "transfer corrupted data")
        status = 1
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
