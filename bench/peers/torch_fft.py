#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_fft.cpp: the same transforms, sizes and inputs (fft_spec.py).

Workloads (names match the C++ benchmark):
  fft/complex128_2^24    torch.fft.fft of 2^24 complex128 values
  rfft/float64_2^24      torch.fft.rfft of 2^24 float64 values
  fft2/complex64_4096    torch.fft.fft2 of a 4096 x 4096 complex64 array
Variant: eager (one cuFFT call; the warm-up call makes the plan, which PyTorch caches).
Protocol (torch_timing.py): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work, torch.cuda.Event records around the call, the median over the runs after warm-up.
GB/s = (input bytes + output bytes) / time. The peak and three zeros of each transform are checked.

Usage: torch_fft.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong.
"""

import sys

import fft_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import Timer, load

WARMUP = 2
RUNS = 20
SCRIPT = "torch_fft"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    timer = Timer(torch, WARMUP)

    def tone(n, k, real):
        p = spec.phase(torch, n, k, torch.float64).cuda()
        return torch.cos(p) if real else torch.polar(torch.ones_like(p), p)

    rows, status = [], 0
    for name in spec.WORKLOADS:
        if name.startswith("fft/"):
            x, fn = tone(spec.N1, spec.K0, False), torch.fft.fft
        elif name.startswith("rfft/"):
            x, fn = tone(spec.N1, spec.K0, True), torch.fft.rfft
        else:
            x = (tone(spec.SIDE, spec.K0, False)[:, None] * tone(spec.SIDE, spec.K1, False)[None, :]).to(
                torch.complex64)
            fn = torch.fft.fft2
        ms, r = timer.median_ms(lambda: fn(x), RUNS)
        problem = spec.wrong(name, lambda i: complex(r[i].item()))
        nbytes = spec.expectations(name)[0]
        row = dict(workload=name, library="torch", variant="eager", median_ms=ms, bytes=nbytes,
                   gbps=nbytes / ms / 1e6, runs=RUNS, device=device)
        if problem:
            note(SCRIPT, f"{name}: wrong result: {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)
        del x, r
        torch.cuda.empty_cache()
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
