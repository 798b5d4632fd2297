"""Reading a log directory into one list of rows.

Inputs (as scripts/gpu-check writes them): bench-<family>.json (Google Benchmark, --benchmark_out)
and <library>-<family>.json for library in cupy, torch, jax (the peers: a JSON list of rows with
workload, library, variant, median_ms or error, and counters).

Every row becomes a dict: family, workload, library, variant, median_ms, limit_ms, error, counters,
source. For ndfuse, the workload is the benchmark's name without its fused/eager part (the variant),
so `chain/fused/float32/len4/n1000` and `seed_eager/float64_2GB` become `chain/float32/len4/n1000`
(fused) and `seed/float64_2GB` (eager); a name with neither is ndfuse's default, lazy mode, shown as
fused. The direct calls the C++ benchmarks time (cublas_direct/X, cufft_direct/X, cub_direct/X, driver_launch/X) become
library "cuda" rows of the workload they are the reference of; device copies (d2d_copy/...) are
library "cuda", variant "copy". limit_ms is the time over the row's x_copy, x_read_limit or x_write_limit counter:
the time a device-to-device copy of the bytes it must move takes in the same process.
"""

import glob
import json
import os
import re

LIBRARIES = ("cupy", "torch", "jax")
MODES = ("fused", "eager")
# Google Benchmark's own keys; every other key of a run is a counter.
GBENCH_KEYS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "aggregate_name", "aggregate_unit", "iterations", "real_time", "cpu_time",
    "time_unit", "error_occurred", "error_message", "label",
}
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
NAME_SUFFIX = re.compile(r"^(iterations|repeats|threads|min_time|min_warmup_time):|^(manual|real|process)_time$")
# Direct calls the C++ benchmarks time as a workload's floor: the library call it makes, for the
# host step one bare cuLaunchKernel (driver_launch/host_step_1000), for a move the CUDA runtime's
# copy of the same bytes (memcpy_pinned/move/cpu_to_cuda0/2GB).
REFERENCES = {"cublas_direct": "cublas", "cufft_direct": "cufft", "cub_direct": "cub", "driver_launch": "driver launch",
              "memcpy_pageable": "cudaMemcpy pageable", "memcpy_pinned": "cudaMemcpy pinned",
              "memcpy_peer": "cudaMemcpyPeer"}
NOT_TIMINGS = ("peak_memory/",)  # rows whose time is a placeholder: only their counters mean something


def limit_of(ms, counters):
    for key in ("x_copy", "x_read_limit", "x_write_limit"):
        x = counters.get(key)
        if ms and x:
            return ms / x
    return None


def split_name(name):
    """(workload, library, variant) of a C++ benchmark's name (its run_name, suffixes removed)."""
    parts = [p for p in name.split("/") if not NAME_SUFFIX.match(p)]
    if parts[0] in REFERENCES:
        rest = "/".join(parts[1:])
        return ("matmul/" + rest if parts[0] == "cublas_direct" else rest), "cuda", REFERENCES[parts[0]]
    if parts[0] == "d2d_copy":
        return "/".join(parts), "cuda", "copy"
    for mode in MODES:
        if mode in parts[1:]:
            parts.remove(mode)
            return "/".join(parts), "ndfuse", mode
        if parts[0].endswith("_" + mode):
            parts[0] = parts[0][: -len(mode) - 1]
            return "/".join(parts), "ndfuse", mode
    return "/".join(parts), "ndfuse", "fused"


def gbench_rows(path, family):
    """Rows of one Google Benchmark JSON file: the median aggregate of each run, or its one run when
    it had a single repetition; a run with an error keeps the error."""
    with open(path) as f:
        data = json.load(f)
    by_run = {}
    for b in data.get("benchmarks", []):
        run = b.get("run_name") or b["name"]
        entry = by_run.setdefault(run, {"median": None, "single": None, "error": None})
        if b.get("error_occurred"):
            entry["error"] = b.get("error_message", "error")
        elif b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                entry["median"] = b
        else:
            entry["single"] = b
    rows = []
    for run, entry in by_run.items():
        workload, library, variant = split_name(run)
        b = entry["median"] or entry["single"]
        row = dict(family=family, workload=workload, library=library, variant=variant, median_ms=None, limit_ms=None,
                   error=entry["error"], counters={}, source=os.path.basename(path))
        if b is not None:
            row["counters"] = {k: v for k, v in b.items() if k not in GBENCH_KEYS and isinstance(v, (int, float))}
            if not any(run.startswith(p) for p in NOT_TIMINGS):
                row["median_ms"] = b["real_time"] * TO_MS.get(b.get("time_unit", "ns"), 1e-6)
                row["limit_ms"] = limit_of(row["median_ms"], row["counters"])
        rows.append(row)
    return rows, data.get("context", {})


def peer_rows(path, family, library):
    with open(path) as f:
        data = json.load(f)
    rows = []
    for r in data if isinstance(data, list) else []:
        ms = r.get("median_ms")
        counters = {k: v for k, v in r.items() if isinstance(v, (int, float)) and k not in ("median_ms",)}
        variant = r.get("variant", "eager")
        workload = r.get("workload", "?")
        lib = r.get("library", library)
        if workload.startswith("d2d_copy/"):
            variant = "copy"
        rows.append(dict(family=family, workload=workload, library=lib, variant=variant, median_ms=ms,
                         limit_ms=limit_of(ms, counters), error=r.get("error"), counters=counters,
                         source=os.path.basename(path), device=r.get("device")))
    return rows


def load(log_dir):
    """(rows, gbench contexts by family, file names read) of every bench-*.json and peer JSON in log_dir."""
    rows, contexts, sources = [], {}, []
    for path in sorted(glob.glob(os.path.join(log_dir, "bench-*.json"))):
        family = os.path.basename(path)[len("bench-"):-len(".json")]
        try:
            found, context = gbench_rows(path, family)
        except (OSError, ValueError, KeyError) as e:
            print(f"report: skipping {path}: {type(e).__name__}: {e}")
            continue
        rows += found
        contexts[family] = context
        sources.append(os.path.basename(path))
    for library in LIBRARIES:
        for path in sorted(glob.glob(os.path.join(log_dir, f"{library}-*.json"))):
            family = os.path.basename(path)[len(library) + 1:-len(".json")]
            try:
                rows += peer_rows(path, family, library)
            except (OSError, ValueError) as e:
                print(f"report: skipping {path}: {type(e).__name__}: {e}")
                continue
            sources.append(os.path.basename(path))
    return rows, contexts, sources
