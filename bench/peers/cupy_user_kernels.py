#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_user_kernels.cpp: seed 003's cupy.ElementwiseKernel, the same
expression with cp.where, and the kernel chained (k(x, y) * 2 + 1: the kernel, then two more), timed
as cupy_timing.py times (events, the GPU kept busy). x_copy: against a device-to-device copy of the
bytes the workload moves, in the same run.

Usage: cupy_user_kernels.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0;
exit 1 when a result is wrong."""

import sys

import user_kernels_spec as spec
from cupy_timing import Timer, load
from peer_output import note, print_table, write_json

SCRIPT = "cupy_user_kernels"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    cp, np, device = found
    timer = Timer(cp, spec.WARMUP)
    nbytes = spec.ELEMENTS * 6  # 1.5 float32 arrays: a copy of them moves what the workloads move
    src, dst = cp.ones(nbytes, cp.uint8), cp.empty(nbytes, cp.uint8)
    rt = cp.cuda.runtime
    stream = cp.cuda.get_current_stream()
    copy_ms, _ = timer.median_ms(
        lambda: rt.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes, rt.memcpyDeviceToDevice, stream.ptr), 20)
    del src, dst
    x, y = spec.inputs(cp)
    k = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", spec.BODY, "my_kernel")
    calls = [
        ("seed003/float32_1e8", "ElementwiseKernel", False, lambda: k(x, y)),
        ("seed003_builtin/float32_1e8", "eager", False, lambda: cp.where(x - 2 > y, x * y, x + y)),
        ("seed003_chained/float32_1e8", "ElementwiseKernel", True, lambda: k(x, y) * 2 + 1),
    ]
    rows, status = spec.measure(SCRIPT, "cupy", device, calls, timer.median_ms, copy_ms, np, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
