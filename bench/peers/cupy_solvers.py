#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_solvers.cpp: the same solvers, inputs and sizes, timed the same way.

Workloads (names match the C++ benchmark): svd, svdvals, inv, solve (1 and 1000 right-hand sides),
eigh, cholesky, qr and det of 1000 x 1000 float64 matrices; inv, solve (against ones((10000, 8, 1)))
and svd of a stack of 10000 8 x 8 ones,
eigh, eigvalsh and cholesky of its symmetric positive definite form (CuPy: batched LU, gesvdjBatched,
syevjBatched, potrfBatched), and eigh of 10000 such 32 x 32 matrices. a is ((i*7919 + 13) % 10007) / 10007 - 0.5 plus 4 on the diagonal, the
symmetric positive definite one a a^T + n I.
Protocol (bench/README.md): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work; cupy.cuda.Event records around the call; the median over the runs after warm-up. CuPy's
default (cupyx linalg config 'ignore') does not read LAPACK's info codes back; ndfuse does.

Usage: cupy_solvers.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0.
"""

import json
import sys

from cupy_timing import Timer, load

N = 1000
WARMUP = 1
RUNS = 7


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load("cupy_solvers", out_path)
    if not found:
        return 0
    cp, np, device = found
    print(f"cupy_solvers: CuPy {cp.__version__} on {device}")
    timer = Timer(cp, WARMUP)
    i = cp.arange(N * N, dtype=cp.int64)
    a = (((i * 7919 + 13) % 10007).astype(cp.float64) / 10007.0 - 0.5).reshape(N, N) + 4.0 * cp.eye(N)
    spd = a @ a.T + N * cp.eye(N)
    b1 = cp.ones(N)
    bn = cp.ones((N, N))
    j = cp.arange(10000 * 64, dtype=cp.int64)
    stack = (((j * 7919 + 13) % 10007).astype(cp.float64) / 10007.0 - 0.5).reshape(10000, 8, 8) + 4.0 * cp.eye(8)
    spd_stack = stack @ cp.swapaxes(stack, -1, -2) + 8.0 * cp.eye(8)
    stack_b = cp.ones((10000, 8, 1))
    k = cp.arange(10000 * 32 * 32, dtype=cp.int64)
    stack32 = (((k * 7919 + 13) % 10007).astype(cp.float64) / 10007.0 - 0.5).reshape(10000, 32, 32) + 4.0 * cp.eye(32)
    spd_stack32 = stack32 @ cp.swapaxes(stack32, -1, -2) + 32.0 * cp.eye(32)
    work = {
        "svd/float64_1000": lambda: cp.linalg.svd(a),
        "svdvals/float64_1000": lambda: cp.linalg.svd(a, compute_uv=False),
        "inv/float64_1000": lambda: cp.linalg.inv(a),
        "solve/float64_1000": lambda: cp.linalg.solve(a, b1),
        "solve/float64_1000x1000": lambda: cp.linalg.solve(a, bn),
        "inv/float64_10000x8x8": lambda: cp.linalg.inv(stack),
        "solve/float64_10000x8x8": lambda: cp.linalg.solve(stack, stack_b),
        "eigh/float64_10000x8x8": lambda: cp.linalg.eigh(spd_stack),
        "eigvalsh/float64_10000x8x8": lambda: cp.linalg.eigvalsh(spd_stack),
        "eigh/float64_10000x32x32": lambda: cp.linalg.eigh(spd_stack32),
        "cholesky/float64_10000x8x8": lambda: cp.linalg.cholesky(spd_stack),
        "svd/float64_10000x8x8": lambda: cp.linalg.svd(stack),
        "eigh/float64_1000": lambda: cp.linalg.eigh(spd),
        "cholesky/float64_1000": lambda: cp.linalg.cholesky(spd),
        "qr/float64_1000": lambda: cp.linalg.qr(a),
        "det/float64_1000": lambda: cp.linalg.det(a),
    }
    rows = []
    for name, fn in work.items():
        ms, _ = timer.median_ms(fn, RUNS)
        rows.append(dict(workload=name, library="cupy", variant="eager", median_ms=ms, runs=RUNS, device=device))
        print(f"  {name:32s} {ms:9.3f} ms")
    # The same calls with CuPy reading the info codes back as ndfuse does (cupyx.errstate(linalg='raise'),
    # which waits for the device at each call): the like-for-like comparison.
    import cupyx

    for name in (
        "inv/float64_1000", "solve/float64_1000", "solve/float64_1000x1000", "inv/float64_10000x8x8",
        "solve/float64_10000x8x8",
        "cholesky/float64_1000", "cholesky/float64_10000x8x8",
    ):
        fn = work[name]

        def checked(fn=fn):
            with cupyx.errstate(linalg="raise"):
                return fn()

        ms, _ = timer.median_ms(checked, RUNS)
        rows.append(dict(workload=name, library="cupy", variant="eager_checked", median_ms=ms, runs=RUNS,
                         device=device))
        print(f"  {name + ' (checked)':32s} {ms:9.3f} ms")
    u, s, vh = cp.linalg.svd(a)
    err = float(cp.linalg.norm((u * s) @ vh - a) / cp.linalg.norm(a))
    print(f"  svd reconstruction error {err:.3e}")
    if out_path:
        with open(out_path, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
