#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_user_kernels.cpp: seed 003's expression with torch.where, eager
and under torch.compile, alone and chained (* 2 + 1), timed as torch_timing.py times. PyTorch has no
ElementwiseKernel; torch.compile of the expression is its fused form.

Usage: torch_user_kernels.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0;
exit 1 when a result is wrong."""

import sys

import user_kernels_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import Timer, allow_recompiles, load

SCRIPT = "torch_user_kernels"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    allow_recompiles(torch)
    timer = Timer(torch, spec.WARMUP)
    src = torch.ones(spec.ELEMENTS * 6, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_ms, _ = timer.median_ms(lambda: dst.copy_(src), 20)
    del src, dst
    x = (torch.arange(spec.ELEMENTS, device="cuda") % 1000).to(torch.float32) / 100.0
    y = torch.full((spec.ELEMENTS,), 3.5, dtype=torch.float32, device="cuda")

    def plain(a, b):
        return torch.where(a - 2 > b, a * b, a + b)

    def chained(a, b):
        return plain(a, b) * 2 + 1

    compiled, compiled_chained = torch.compile(plain), torch.compile(chained)
    calls = [
        ("seed003/float32_1e8", "compile", False, lambda: compiled(x, y)),
        ("seed003_builtin/float32_1e8", "eager", False, lambda: plain(x, y)),
        ("seed003_chained/float32_1e8", "compile", True, lambda: compiled_chained(x, y)),
        ("seed003_chained/float32_1e8", "eager", True, lambda: chained(x, y)),
    ]
    rows, status = spec.measure(SCRIPT, "torch", device, calls, timer.median_ms, copy_ms, np, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
