#!/usr/bin/env python3
"""Experiment (session 25): the Triton kernels torch.compile makes for the reduction rows where it is
ahead of ndfuse by 0.5-1.5% (rows of four, columns of 4 x 2^26, mean of a lazy 16384^2), with their
launch grids and PTX, and their times under the bench's protocol (bench/peers/torch_timing.py).
  TRITON_CACHE_DIR=$OUT/triton TORCH_LOGS=output_code python3 triton_reduce_probe.py [CASE...]
The cache directory then holds each kernel's .ptx, .cubin and .json (num_warps, shared memory);
inductor's autotuning choice (XBLOCK, num_warps) is in its cache's .best_config files."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench", "peers"))
import torch  # noqa: E402
from torch_timing import Timer  # noqa: E402

timer = Timer(torch, 3)
rows4 = torch.rand(1 << 26, 4, device="cuda", dtype=torch.float32)
cols4 = torch.rand(4, 1 << 26, device="cuda", dtype=torch.float32)
square = torch.rand(16384, 16384, device="cuda", dtype=torch.float32)


def row_sum(v):
    return torch.sum(v, dim=1)


def col_sum(v):
    return torch.sum(v, dim=0)


def lazy_mean(v):
    return torch.mean(v * 2 + 1, dim=1)


cases = [("rows_of_four", row_sum, rows4), ("sum_axis0_4x2^26", col_sum, cols4),
                    ("sum_axis1_16384^2", row_sum, square), ("mean_axis1_lazy", lazy_mean, square)]
for name, fn, x in cases:
    if len(sys.argv) > 1 and name not in sys.argv[1:]:
        continue
    compiled = torch.compile(fn, dynamic=False)
    for rnd in range(3):
        ms_c, _ = timer.median_ms(lambda: compiled(x), 21)
        ms_e, _ = timer.median_ms(lambda: fn(x), 21)
        print(f"{name}: torch.compile {ms_c * 1000:.1f} us, eager {ms_e * 1000:.1f} us (round {rnd})", flush=True)
