#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_distributed.cpp: NCCL's all_reduce through cupy.cuda.nccl, one
process driving every GPU (NcclCommunicator.initAll, one call per GPU inside groupStart/groupEnd),
as ndfuse's init_all does; float32 arrays of 1 MB to 1 GB. The wall clock from the calls to the end
of a synchronize of every GPU, the median of RUNS runs after one warm-up. GPU r holds r + 1; every
element of the sum must be n (n + 1) / 2.

Usage: cupy_distributed.py [OUT.json]. Without CuPy, its NCCL or two GPUs it notes so, writes [] and
exits 0. Exit status 1 when a result is wrong."""

import sys
import time

from peer_output import note, print_table, write_json

SCRIPT = "cupy_distributed"
SIZES_MB = [1, 4, 16, 64, 256, 1024]
RUNS = 5


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    try:
        import cupy as cp
        from cupy.cuda import nccl

        n = cp.cuda.runtime.getDeviceCount()
        if n < 2:
            raise RuntimeError(f"{n} GPU")
        comms = nccl.NcclCommunicator.initAll(n)
    except Exception as e:  # noqa: BLE001 - ImportError, CuPy without NCCL, fewer than two GPUs
        note(SCRIPT, f"CuPy with NCCL and two GPUs is missing ({type(e).__name__}: {e}); nothing measured")
        write_json(out_path, [])
        return 0
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    device = name.decode() if isinstance(name, bytes) else str(name)
    print(f"{SCRIPT}: CuPy {cp.__version__}, NCCL {nccl.get_version()}, {n} GPUs")

    def sync():
        for d in range(n):
            with cp.cuda.Device(d):
                cp.cuda.Device(d).synchronize()

    rows = []
    for mb in SIZES_MB:
        elements = (mb << 20) // 4
        xs, ys = [], []
        for d in range(n):
            with cp.cuda.Device(d):
                xs.append(cp.full(elements, d + 1, dtype=cp.float32))
                ys.append(cp.empty_like(xs[-1]))

        def all_reduce():
            nccl.groupStart()
            for d in range(n):
                with cp.cuda.Device(d):
                    comms[d].allReduce(xs[d].data.ptr, ys[d].data.ptr, elements, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                                       cp.cuda.get_current_stream().ptr)
            nccl.groupEnd()

        all_reduce()
        sync()
        times = []
        for _ in range(RUNS):
            sync()
            t0 = time.perf_counter()
            all_reduce()
            sync()
            times.append((time.perf_counter() - t0) * 1e3)
        want = n * (n + 1) / 2
        ok = all(float(y[0]) == want and float(y[-1]) == want for y in ys)
        times.sort()
        ms = times[len(times) // 2]
        algbw = (mb << 20) / ms / 1e6
        rows.append(dict(workload=f"all_reduce/float32/{mb}MB", library="cupy", variant="nccl_group",
                         median_ms=ms, runs=RUNS, bytes=mb << 20, gbps=algbw * 2 * (n - 1) / n, algbw=algbw,
                         ranks=n, device=device, **({} if ok else {"error": "wrong values"})))
    print_table(rows)
    write_json(out_path, rows)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
