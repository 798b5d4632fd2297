#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_chains.cpp: the same elementwise chains, sizes and inputs, timed the
same way.

Workloads: chain/<dtype>/len<L>/n<N> (chains_spec.py: L in 1, 2, 4, 8, 16 steps cycling y * 1.5,
y + 0.25, sin(y), y - 0.5; N from 10^3 to 2.5e8; float32 and float64), and d2d_copy/<dtype>/n<N>, the
copy of the array's bytes that every chain is compared with (x_copy). Variants: eager (one CuPy call,
one kernel, per step), fuse (cupy.fuse of the same Python function) and elementwise_kernel (a
cupy.ElementwiseKernel whose body is the chain in CUDA C++).

Protocol (bench/README.md): 1 + L/4 device-to-device copies of 512 MiB keep the GPU busy while Python
enqueues the work (they also evict the array from L2), cupy.cuda.Event records around the call, the
median over the runs after warm-up. bytes = the array read plus the result written; x_copy = time
over the copy of the array's bytes, timed here the same way. Four entries of each result are checked
against the chain computed by NumPy.

Usage: cupy_chains.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong or the eager variant fails; a fused variant CuPy cannot build (or
one whose result has another dtype) is noted and skipped.
"""

import sys

import chains_spec as spec
from cupy_timing import Timer, load
from peer_output import note, print_table, write_json

WARMUP = 2
SCRIPT = "cupy_chains"


class ChainTimer(Timer):
    """cupy_timing's Timer with as many busy copies before a run as the chain's length asks for."""

    copies = 1

    def keep_gpu_busy(self):
        for _ in range(self.copies):
            super().keep_gpu_busy()


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    cp, np, device = found
    print(f"{SCRIPT}: CuPy {cp.__version__} on {device}")
    timer = ChainTimer(cp, WARMUP)
    pool = cp.get_default_memory_pool()
    stream = cp.cuda.get_current_stream()
    rows, status = [], 0

    eager = {L: spec.chain_function(L, cp.sin) for L in spec.LENGTHS}
    fused = {L: cp.fuse(spec.chain_function(L, cp.sin)) for L in spec.LENGTHS}
    kernels = {L: cp.ElementwiseKernel("T x", "T out", spec.cuda_body(L), f"bench_chain_len{L}")
               for L in spec.LENGTHS}

    for dtype in spec.DTYPES:
        for n in spec.SIZES:
            x = ((cp.arange(n) % 1000) / 1000.0 + 1.0).astype(dtype)
            nbytes = x.nbytes
            runs = spec.runs_for(n)
            dst = cp.empty_like(x)

            def copy():
                cp.cuda.runtime.memcpyAsync(dst.data.ptr, x.data.ptr, nbytes, cp.cuda.runtime.memcpyDeviceToDevice,
                                            stream.ptr)

            timer.copies = 1
            copy_ms, _ = timer.median_ms(copy, runs)
            del dst
            rows.append(dict(workload=spec.copy_workload(dtype, n), library="cupy", variant="copy", median_ms=copy_ms,
                             bytes=2 * nbytes, gbps=2 * nbytes / copy_ms / 1e6, x_copy=1.0, runs=runs, device=device))
            indices = spec.check_indices(n)
            for L in spec.LENGTHS:
                name = spec.workload(dtype, L, n)
                timer.copies = spec.busy_copies(L)
                for variant, fn, optional in (("eager", lambda: eager[L](x), False),
                                              ("fuse", lambda: fused[L](x), True),
                                              ("elementwise_kernel", lambda: kernels[L](x), True)):
                    try:
                        ms, r = timer.median_ms(fn, runs)
                        if r.dtype != x.dtype:  # not the same workload: noted, not a failure
                            raise TypeError(f"result dtype {r.dtype}, expected {x.dtype}")
                        problem = spec.check(np, dtype, L, indices, cp.asnumpy(r[cp.asarray(indices)]))
                    except Exception as e:  # noqa: BLE001 - a variant CuPy cannot build or run
                        note(SCRIPT, f"{name} [{variant}]: {type(e).__name__}: {e}")
                        rows.append(dict(workload=name, library="cupy", variant=variant,
                                         error=f"{type(e).__name__}: {e}", device=device))
                        status = status if optional else 1
                        continue
                    row = dict(workload=name, library="cupy", variant=variant, median_ms=ms, bytes=2 * nbytes,
                               gbps=2 * nbytes / ms / 1e6, x_copy=ms / copy_ms, runs=runs, device=device)
                    if problem:
                        note(SCRIPT, f"{name} [{variant}]: wrong result: {problem}")
                        row["error"] = f"wrong result: {problem}"
                        status = 1
                    rows.append(row)
                    del r
            del x
            cp.cuda.Device().synchronize()
            pool.free_all_blocks()
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
