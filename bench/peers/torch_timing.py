"""What the PyTorch peers share: finding PyTorch and a GPU, and the timing protocol of bench/README.md,
the same as cupy_timing.py's: a 512 MiB device-to-device copy (one or more) keeps the GPU busy while
Python enqueues the work, torch.cuda.Event records on the current stream around the call, and the
median over the runs after warm-up is reported. The previous run's result is dropped before the busy
copy, so freeing it is not timed (the caching allocator reuses its memory). TF32 is off, so float32
products are IEEE float32 as in ndfuse and CuPy."""

import time

from peer_output import missing

BUSY_BYTES = 512 << 20


def load(script, out_path):
    """(torch, numpy, device name), or None after noting why and writing [] to out_path."""
    try:
        import numpy as np
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False")
    except Exception as e:  # noqa: BLE001 - ImportError, a torch without CUDA, no device
        missing(script, "PyTorch", e, out_path)
        return None
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    return torch, np, torch.cuda.get_device_name(0)


def allow_recompiles(torch, limit=64):
    """torch.compile keeps a few compiled versions per function (8 by default) and silently runs
    eager past that; each dtype is one version here, so raise the limit well above what we make."""
    import torch._dynamo

    for name in ("cache_size_limit", "recompile_limit"):
        if hasattr(torch._dynamo.config, name):
            setattr(torch._dynamo.config, name, limit)


class Timer:
    def __init__(self, torch, warmup):
        self.torch = torch
        self.warmup = warmup
        self.busy_src = torch.ones(BUSY_BYTES, dtype=torch.uint8, device="cuda")
        self.busy_dst = torch.empty_like(self.busy_src)

    def keep_gpu_busy(self, copies=1):
        for _ in range(copies):
            self.busy_dst.copy_(self.busy_src, non_blocking=True)

    def median_ms(self, fn, runs, busy=1, before=None):
        """Median event time of fn() over runs after warm-up, with `busy` busy copies (0: none) and
        before() (say, restoring an input in place) enqueued ahead of each run; (ms, last result)."""
        torch = self.torch
        for _ in range(self.warmup):
            if before:
                before()
            fn()
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        times, result = [], None
        for _ in range(runs):
            result = None
            self.keep_gpu_busy(busy)
            if before:
                before()
            start.record()
            result = fn()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        times.sort()
        return times[len(times) // 2], result

    def first_call_ms(self, fn):
        """Wall time of fn()'s first call, synchronized: for torch.compile, tracing and compiling."""
        self.torch.cuda.synchronize()
        t0 = time.perf_counter()
        result = fn()
        self.torch.cuda.synchronize()
        return (time.perf_counter() - t0) * 1e3, result

    def wall_ms_per_call(self, fn, calls, runs=5):
        """Median over runs of the wall time of `calls` calls and one synchronize, per call: the host
        cost of a step once the device keeps up (small arrays)."""
        torch = self.torch
        for _ in range(max(1, calls // 10)):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
            times.append((time.perf_counter() - t0) * 1e3 / calls)
        times.sort()
        return times[len(times) // 2]
