#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_linalg.cpp: the same products, sizes and inputs (linalg_spec.py).

Workloads (names match the C++ benchmark):
  matmul/float64_10000, matmul/float32_10000   torch.matmul of 10000 x 10000 matrices (TF32 off)
  matmul_at_b/float64_10000                    torch.matmul(a.T, b)
  scaled_matmul/float32_1Mx64                  2.5 * torch.matmul(x, w) + 0.5 * y: eager and compile
                                               (torch.compile, which may fuse the epilogue)
Protocol (torch_timing.py): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work, torch.cuda.Event records around the call, the median over the runs after warm-up.
TFLOP/s = 2 n^3 / time. Entries are exact and checked.

Usage: torch_linalg.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong or an eager call fails.
"""

import sys

import linalg_spec as spec
from peer_output import note, print_table, timed_row, write_json
from torch_timing import Timer, load

WARMUP = 1
RUNS = 5
SCRIPT = "torch_linalg"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    timer = Timer(torch, WARMUP)
    rows, status = [], 0
    n = spec.N

    def flat(count, period, offset, dtype):
        v = torch.arange(count, device="cuda", dtype=torch.float64) % period - offset
        return (v / 4.0).to(getattr(torch, dtype))

    for dtype, transposed in spec.PRODUCTS:
        a = flat(n * n, 7, 3, dtype).reshape(n, n)
        b = flat(n * n, 5, 2, dtype).reshape(n, n)
        lhs = a.T if transposed else a
        name = spec.product_name(dtype, transposed)
        ms, r = timer.median_ms(lambda: torch.matmul(lhs, b), RUNS)
        problem = spec.check_entries(np, lambda i, j: float(r[i, j]),
                                     lambda i, j: spec.product_entry(np, i, j, transposed), spec.CHECKED)
        row = dict(workload=name, library="torch", variant="eager", median_ms=ms, tflops=spec.tflops(ms), runs=RUNS,
                   device=device)
        if problem:
            note(SCRIPT, f"{name}: wrong result {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)
        del a, b, lhs, r
        torch.cuda.empty_cache()

    x = flat(spec.TALL * spec.WIDTH, 7, 3, "float32").reshape(spec.TALL, spec.WIDTH)
    w = flat(spec.WIDTH * spec.WIDTH, 5, 2, "float32").reshape(spec.WIDTH, spec.WIDTH)
    y = (torch.arange(spec.TALL * spec.WIDTH, device="cuda") % 3 - 1).to(torch.float32).reshape(spec.TALL, spec.WIDTH)

    def scaled(x, w, y):
        return 2.5 * torch.matmul(x, w) + 0.5 * y

    name = "scaled_matmul/float32_1Mx64"
    def check(r):
        problem = spec.check_entries(np, lambda i, j: float(r[i, j]), lambda i, j: spec.scaled_entry(np, i, j),
                                     spec.SCALED_CHECKED)
        return (f"wrong result: {problem}" if problem else None), {}

    for variant, fn in (("eager", scaled), ("compile", torch.compile(scaled, dynamic=False))):
        row, ok = timed_row(SCRIPT, name, "torch", variant, device, RUNS,
                            lambda: timer.median_ms(lambda: fn(x, w, y), RUNS), check)
        rows.append(row)
        # A wrong result fails the script; a failure to compile is only noted.
        if not ok and (variant == "eager" or "median_ms" in row):
            status = 1
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
