#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_devices.cpp (devices_spec.py): Tensor.to between the CPU and
GPU 0 from pageable and from pinned host memory, and from GPU 0 to GPU 1.

Usage: torch_devices.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0.
Exit status 1 when a result is wrong."""

import sys

import devices_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import load

SCRIPT = "torch_devices"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    host = torch.from_numpy(spec.host_source(np))
    pinned = host.pin_memory()
    on_gpu = host.to("cuda:0")
    sync = torch.cuda.synchronize
    tail = lambda t: t[-3:].tolist()  # noqa: E731
    moves = {
        "cpu_to_cuda0": [("to", lambda: host.to("cuda:0"), sync, tail),
                         ("pinned", lambda: pinned.to("cuda:0", non_blocking=True), sync, tail)],
        "cuda0_to_cpu": [("to", lambda: on_gpu.to("cpu"), sync, tail),
                         ("pinned", lambda: torch.empty(on_gpu.shape, dtype=on_gpu.dtype, pin_memory=True)
                          .copy_(on_gpu, non_blocking=True), sync, tail)],
    }
    if torch.cuda.device_count() >= 2:
        moves["cuda0_to_cuda1"] = [("to", lambda: on_gpu.to("cuda:1"), lambda: [torch.cuda.synchronize(d)
                                                                               for d in (0, 1)], tail)]
    rows, status = spec.run(SCRIPT, "torch", device, moves, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
