#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_solvers.cpp: the same solvers, inputs and sizes (solvers_spec.py).

Workloads (names match the C++ benchmark): svd, svdvals, inv, solve (1 and 1000 right-hand sides),
eigh, cholesky, qr and det of 1000 x 1000 float64 matrices; inv, eigh, cholesky and svd of a stack of
10000 8 x 8 ones. Variant: eager (torch.linalg; like ndfuse, its default calls check LAPACK's info
codes, which waits for the device). torch.compile is not timed: each call is one library call.

Protocol (torch_timing.py): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work, torch.cuda.Event records around the call, the median over the runs after warm-up. The
residuals of svd, inv and solve are checked against a loose bound.

Usage: torch_solvers.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a call fails or a residual is too large.
"""

import sys

import solvers_spec as spec
from peer_output import print_table, timed_row, write_json
from torch_timing import Timer, load

WARMUP = 1
RUNS = 5
SCRIPT = "torch_solvers"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    timer = Timer(torch, WARMUP)
    la = torch.linalg
    n = spec.N

    def pattern(count):
        i = torch.arange(count, device="cuda", dtype=torch.int64)
        return ((i * 7919 + 13) % 10007).to(torch.float64) / 10007.0 - 0.5

    eye = torch.eye(n, device="cuda", dtype=torch.float64)
    eye8 = torch.eye(spec.SIDE, device="cuda", dtype=torch.float64)
    a = pattern(n * n).reshape(n, n) + 4.0 * eye
    stack = pattern(spec.STACK * spec.SIDE**2).reshape(spec.STACK, spec.SIDE, spec.SIDE) + 4.0 * eye8
    m = dict(a=a, spd=a @ a.T + n * eye, b1=torch.ones(n, device="cuda", dtype=torch.float64),
             bn=torch.ones(n, n, device="cuda", dtype=torch.float64), stack=stack,
             spd_stack=stack @ stack.transpose(-1, -2) + 8.0 * eye8)
    m["stack_b"] = torch.ones(spec.STACK, spec.SIDE, 1, device="cuda", dtype=torch.float64)
    k = spec.SIDE_LARGE
    eye32 = torch.eye(k, device="cuda", dtype=torch.float64)
    stack32 = pattern(spec.STACK * k * k).reshape(spec.STACK, k, k) + 4.0 * eye32
    m["spd_stack32"] = stack32 @ stack32.transpose(-1, -2) + float(k) * eye32

    def residual(name, r):
        if name == "svd/float64_1000":
            u, s, vh = r
            return float(la.norm((u * s) @ vh - a) / la.norm(a))
        if name == "inv/float64_1000":
            return float(la.norm(a @ r - eye) / n**0.5)
        if name == "solve/float64_10000x8x8":
            return float(la.norm(stack @ r - m["stack_b"]) / la.norm(m["stack_b"]))
        if name.startswith("solve/"):
            b = m["b1"] if r.ndim == 1 else m["bn"]
            return float(la.norm(a @ r - b) / la.norm(b))
        return None

    rows, status = [], 0
    for name, fn in spec.calls(la, la.svdvals).items():
        row, ok = timed_row(SCRIPT, name, "torch", "eager", device, RUNS, lambda: timer.median_ms(lambda: fn(m), RUNS),
                            lambda r: spec.residual_check(residual(name, r)))
        rows.append(row)
        status = status if ok else 1
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
