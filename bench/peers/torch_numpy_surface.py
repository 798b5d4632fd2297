#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_numpy_surface.cpp: torch.special.i0, torch.quantile,
torch.histc and conv1d on the same data, timed as torch_timing.py times.

Usage: torch_numpy_surface.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0;
exit 1 when a result is wrong."""

import sys

import numpy_surface_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import Timer, load

SCRIPT = "torch_numpy_surface"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    timer = Timer(torch, spec.WARMUP)

    def inputs(n):
        return (torch.arange(n, device="cuda") % 1000).to(torch.float32) / 100.0 - 5.0

    x, xq, xc = inputs(spec.ELEMENTS), inputs(spec.QUANTILE_ELEMENTS), inputs(spec.CONVOLVE_ELEMENTS)
    taps = torch.full((1, 1, spec.TAPS), 1 / spec.TAPS, dtype=torch.float32, device="cuda")
    lo, hi = float(x.min()), float(x.max())
    conv = torch.nn.functional.conv1d
    calls = [
        ("i0/float32_1e8", "eager", lambda: torch.special.i0(x)),
        ("quantile/float32_1e7", "eager", lambda: torch.quantile(xq, 0.3)),
        ("histogram/float32_1e8", "eager", lambda: torch.histc(x, spec.BINS, lo, hi)),
        ("convolve/float32_1e7_31", "eager",
         lambda: conv(xc.view(1, 1, -1), taps, padding=spec.TAPS // 2).view(-1)),
    ]
    rows, status = spec.measure(SCRIPT, "torch", device, calls, timer.median_ms, np, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
