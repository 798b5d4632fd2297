#!/usr/bin/env python3
"""CuPy peer of bench/bench_cuda_devices.cpp (devices_spec.py): cupy.asarray of pageable and of
pinned host memory to GPU 0, cupy.asnumpy back into pageable and pinned memory, and cupy.asarray
under cupy.cuda.Device(1) of an array on GPU 0 (a peer copy).

Usage: cupy_devices.py [OUT.json]. Without CuPy or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong."""

import sys

import devices_spec as spec
from cupy_timing import load
from peer_output import note, print_table, write_json

SCRIPT = "cupy_devices"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    cp, np, device = found
    print(f"{SCRIPT}: CuPy {cp.__version__} on {device}")
    host = spec.host_source(np)
    pinned_memory = cp.cuda.alloc_pinned_memory(spec.BYTES)
    pinned = np.frombuffer(pinned_memory, dtype=np.float64, count=spec.ELEMENTS)
    pinned[:] = host
    with cp.cuda.Device(0):
        on_gpu = cp.asarray(host)

    def sync():
        for d in range(cp.cuda.runtime.getDeviceCount()):
            with cp.cuda.Device(d):
                cp.cuda.Device(d).synchronize()

    def to_gpu(source):
        with cp.cuda.Device(0):
            return cp.asarray(source)

    def to_pinned():
        on_gpu.get(out=pinned_out)
        return pinned_out

    pinned_out = np.frombuffer(cp.cuda.alloc_pinned_memory(spec.BYTES), dtype=np.float64, count=spec.ELEMENTS)
    gpu_tail = lambda a: cp.asnumpy(a[-3:]).tolist()  # noqa: E731
    host_tail = lambda a: a[-3:].tolist()  # noqa: E731
    moves = {
        "cpu_to_cuda0": [("asarray", lambda: to_gpu(host), sync, gpu_tail),
                         ("pinned", lambda: to_gpu(pinned), sync, gpu_tail)],
        "cuda0_to_cpu": [("asnumpy", lambda: cp.asnumpy(on_gpu), sync, host_tail),
                         ("pinned", to_pinned, sync, host_tail)],
    }
    if cp.cuda.runtime.getDeviceCount() >= 2:
        def to_gpu1():
            with cp.cuda.Device(1):
                return cp.asarray(on_gpu)

        moves["cuda0_to_cuda1"] = [("asarray", to_gpu1, sync, gpu_tail)]
    rows, status = spec.run(SCRIPT, "cupy", device, moves, note)
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
