"""What the JAX peers share: finding JAX and a GPU, and their timing protocol.

JAX exposes no CUDA events, so its times are wall clock: after warm-up (which compiles), one run is
time.perf_counter() around a loop of `inner` calls followed by jax.block_until_ready on the last
result, divided by `inner`; `inner` is chosen so a loop lasts at least MIN_LOOP_MS, and the median
over the runs is reported. Dispatch is asynchronous, so for large arrays a call costs its device
time, and for small ones the larger of its device time and JAX's per-call host overhead (the CUDA
peers hide that overhead behind a busy copy instead: compare small-array JAX times with care).
float64 is enabled (jax_enable_x64) and float32 products use full precision ('highest', not TF32),
as in ndfuse, CuPy and PyTorch. Memory is not preallocated (XLA_PYTHON_CLIENT_PREALLOCATE=false),
so JAX takes what the workload needs, like the other libraries."""

import math
import os
import time

from peer_output import missing

MIN_LOOP_MS = 5.0
MAX_INNER = 200


def load(script, out_path):
    """(jax, jax.numpy, numpy, device name), or None after noting why and writing [] to out_path."""
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    try:
        import numpy as np
        import jax

        jax.config.update("jax_enable_x64", True)
        jax.config.update("jax_default_matmul_precision", "highest")
        gpus = jax.devices("gpu")  # RuntimeError when JAX has no GPU backend
        if not gpus:
            raise RuntimeError("no GPU device")
        import jax.numpy as jnp
    except Exception as e:  # noqa: BLE001 - ImportError, a CPU-only jaxlib, no device
        missing(script, "JAX", e, out_path)
        return None
    return jax, jnp, np, str(gpus[0].device_kind)


class Timer:
    def __init__(self, jax, warmup):
        self.jax = jax
        self.warmup = warmup

    def block(self, result):
        return self.jax.block_until_ready(result)

    def median_ms(self, fn, runs):
        """Median per-call wall time of fn() over runs of a loop of calls (see the module note);
        returns (ms, last result)."""
        for _ in range(self.warmup):
            self.block(fn())
        t0 = time.perf_counter()
        self.block(fn())
        once = time.perf_counter() - t0
        inner = max(1, min(MAX_INNER, math.ceil(MIN_LOOP_MS / 1e3 / max(once, 1e-7))))
        times, result = [], None
        for _ in range(runs):
            result = None
            t0 = time.perf_counter()
            for _ in range(inner):
                result = fn()
            self.block(result)
            times.append((time.perf_counter() - t0) * 1e3 / inner)
        times.sort()
        return times[len(times) // 2], result

    def first_call_ms(self, fn):
        """Wall time of fn()'s first call, blocked on: for jax.jit, tracing and compiling."""
        t0 = time.perf_counter()
        result = self.block(fn())
        return (time.perf_counter() - t0) * 1e3, result
