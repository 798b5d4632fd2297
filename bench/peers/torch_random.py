#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_random.cpp: torch.rand and torch.randn on the GPU (Philox4x32-10,
cuRAND's engine in PyTorch's kernels), the same sizes, timed the same way (torch_timing.py).
x_write_limit: the time over half a device-to-device copy of the bytes written.

Usage: torch_random.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0; exit 1
when a result's moments are off."""

import sys

import random_spec as spec
from peer_output import note, write_json
from torch_timing import Timer, load


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("torch_random", out_path)
    if not found:
        return 0
    torch, _, device = found
    timer = Timer(torch, spec.WARMUP)
    nbytes = spec.ELEMENTS * 8
    src = torch.ones(nbytes, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_ms, _ = timer.median_ms(lambda: dst.copy_(src, non_blocking=True), 20)
    del src, dst
    torch.cuda.empty_cache()
    rows = [dict(workload="d2d_copy/2GB", library="torch", variant="copy", median_ms=copy_ms, device=device,
                 runs=20)]
    gen = torch.Generator(device="cuda").manual_seed(1)
    f64, f32 = torch.float64, torch.float32
    calls = {
        "random/float64_2GB": lambda: torch.rand(spec.CUBE, dtype=f64, device="cuda", generator=gen),
        "random/float32_1GB": lambda: torch.rand(spec.ELEMENTS, dtype=f32, device="cuda", generator=gen),
        "standard_normal/float64_2GB": lambda: torch.randn(spec.ELEMENTS, dtype=f64, device="cuda", generator=gen),
        "sum_standard_normal/float64_2.5e8": lambda: torch.randn(spec.ELEMENTS, dtype=f64, device="cuda",
                                                                 generator=gen).sum(),
    }
    # PyTorch draws gamma and Poisson variates from a tensor of parameters, made before the timing.
    alpha = torch.full((spec.COUNTS,), 2.0, dtype=f64, device="cuda")
    rates = torch.full((spec.COUNTS,), 10.0, dtype=f64, device="cuda")
    calls["standard_gamma/float64_0.8GB"] = lambda: torch._standard_gamma(alpha, generator=gen)
    calls["poisson/int64_0.8GB"] = lambda: torch.poisson(rates, generator=gen)
    status = 0
    for name, fn in calls.items():
        try:
            ms, r = timer.median_ms(fn, spec.RUNS)
            if r.dim() == 0:
                problem = spec.check(name, float(r), None)
            else:
                x = r.to(f64)
                problem = spec.check(name, float(x.mean()), float(x.std(correction=0)))
                del x
            row = spec.row(name, "torch", "eager", ms, copy_ms, device, spec.RUNS)
            if problem:
                row["error"] = "wrong result: " + problem
                status = 1
        except Exception as e:  # noqa: BLE001
            note("torch_random", f"{name}: {type(e).__name__}: {e}")
            row = dict(workload=name, library="torch", variant="eager", error=f"{type(e).__name__}: {e}",
                       device=device)
            status = 1
        rows.append(row)
        r = None
        torch.cuda.empty_cache()
    spec.print_rows(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
