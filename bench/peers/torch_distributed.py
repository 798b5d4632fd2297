#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_distributed.cpp: torch.distributed.all_reduce (NCCL) of float32
tensors of 1 MB to 1 GB, one process per GPU (torch.multiprocessing, a TCP store on loopback), on
every GPU of the machine. Each run: a barrier, then the wall clock from the call to the end of a
synchronize, on rank 0; the median of RUNS runs after one warm-up. Rank r holds r + 1; every
element of the sum must be n (n + 1) / 2.

Usage: torch_distributed.py [OUT.json]. Without PyTorch, NCCL or two GPUs it notes so, writes [] and
exits 0. Exit status 1 when a result is wrong."""

import os
import socket
import sys
import time

from peer_output import note, print_table, write_json

SCRIPT = "torch_distributed"
SIZES_MB = [1, 4, 16, 64, 256, 1024]
RUNS = 5


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_main(rank, n, port, queue):
    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=n)
    rows = []
    for mb in SIZES_MB:
        elements = (mb << 20) // 4
        x = torch.full((elements,), float(rank + 1), device=f"cuda:{rank}", dtype=torch.float32)
        y = x.clone()
        dist.all_reduce(y)
        torch.cuda.synchronize()
        times = []
        for _ in range(RUNS):
            y.copy_(x)  # all_reduce works in place: each run starts from the rank's own values
            dist.barrier()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            dist.all_reduce(y)
            torch.cuda.synchronize()
            times.append((time.perf_counter() - t0) * 1e3)
        want = n * (n + 1) / 2
        ok = float(y[0]) == want and float(y[-1]) == want
        times.sort()
        ms = times[len(times) // 2]
        algbw = (mb << 20) / ms / 1e6
        rows.append(dict(workload=f"all_reduce/float32/{mb}MB", library="torch", variant="all_reduce",
                         median_ms=ms, runs=RUNS, bytes=mb << 20, gbps=algbw * 2 * (n - 1) / n,
                         algbw=algbw, ranks=n, device=torch.cuda.get_device_name(rank),
                         **({} if ok else {"error": "wrong values"})))
    if rank == 0:
        queue.put(rows)
    dist.destroy_process_group()


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    try:
        import torch
        import torch.distributed as dist
        import torch.multiprocessing as mp

        n = torch.cuda.device_count()
        if n < 2 or not dist.is_nccl_available():
            raise RuntimeError(f"{n} GPUs, NCCL {'available' if dist.is_nccl_available() else 'missing'}")
    except Exception as e:  # noqa: BLE001 - ImportError, no NCCL, fewer than two GPUs
        note(SCRIPT, f"PyTorch with NCCL and two GPUs is missing ({type(e).__name__}: {e}); nothing measured")
        write_json(out_path, [])
        return 0
    print(f"{SCRIPT}: PyTorch {torch.__version__}, NCCL {torch.cuda.nccl.version()}, {n} GPUs")
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # NVLink multicast off, as the machines require
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    mp.spawn(rank_main, args=(n, free_port(), queue), nprocs=n, join=True)
    rows = queue.get()
    print_table(rows)
    write_json(out_path, rows)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
