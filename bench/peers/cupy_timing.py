"""What the CuPy peers share: finding CuPy and a GPU, and the timing protocol of bench/README.md (a
512 MiB device-to-device copy keeps the GPU busy while Python enqueues the work; cupy.cuda.Event
records around the call; the median over the runs after warm-up)."""

import sys

BUSY_BYTES = 512 << 20


def load(script, out_path):
    """(cupy, numpy, device name), or None after noting why and writing [] to out_path."""
    try:
        import cupy as cp
        import numpy as np

        if cp.cuda.runtime.getDeviceCount() == 0:
            raise RuntimeError("no CUDA device")
    except Exception as e:  # noqa: BLE001 - ImportError, a CuPy that cannot load CUDA, no device
        print(f"{script}: CuPy or a GPU is missing ({type(e).__name__}: {e}); nothing measured", file=sys.stderr)
        if out_path:
            with open(out_path, "w") as f:
                f.write("[]\n")
        return None
    name = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"]
    return cp, np, name.decode() if isinstance(name, bytes) else str(name)


class Timer:
    def __init__(self, cp, warmup):
        self.cp = cp
        self.warmup = warmup
        self.stream = cp.cuda.get_current_stream()
        self.busy_src = cp.ones(BUSY_BYTES, dtype=cp.uint8)
        self.busy_dst = cp.empty_like(self.busy_src)

    def keep_gpu_busy(self):
        rt = self.cp.cuda.runtime
        rt.memcpyAsync(self.busy_dst.data.ptr, self.busy_src.data.ptr, BUSY_BYTES, rt.memcpyDeviceToDevice,
                       self.stream.ptr)

    def median_ms(self, fn, runs, busy=True):
        """Median event time of fn() over runs, after warm-up; returns (ms, last result)."""
        cp = self.cp
        for _ in range(self.warmup):
            fn()
        cp.cuda.Device().synchronize()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        times, result = [], None
        for _ in range(runs):
            result = None  # the previous result is freed outside the timed region
            if busy:
                self.keep_gpu_busy()
            start.record(self.stream)
            result = fn()
            stop.record(self.stream)
            stop.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, stop))
        times.sort()
        return times[len(times) // 2], result
