"""What every peer script writes, whatever its library: a note on stderr, the JSON list of rows, a
plain table on stdout. A row is a dict with workload, library, variant, median_ms (or error), runs,
device, and optional bytes, gbps, x_copy, x_read_limit, tflops: the format of the cupy_*.py peers,
which bench/report reads."""

import json
import sys


def note(script, msg):
    print(f"{script}: {msg}", file=sys.stderr)


def write_json(path, rows):
    text = json.dumps(rows, indent=1)
    if path:
        with open(path, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


def missing(script, library, error, out_path):
    """The library or a GPU is missing: say why, write [] (the report then shows no column) and let the
    caller exit 0."""
    note(script, f"{library} or a GPU is missing ({type(error).__name__}: {error}); nothing measured")
    if out_path:
        write_json(out_path, [])


def print_table(rows):
    print(f"  {'workload':<40} {'variant':<20} {'median_ms':>11} {'GB/s':>8}")
    for r in rows:
        if "median_ms" not in r:
            print(f"  {r['workload']:<40} {r['variant']:<20} {'-':>11} {'-':>8}  {r.get('error', '')}")
            continue
        gbps = f"{r['gbps']:8.0f}" if r.get("gbps") is not None else f"{'-':>8}"
        flag = f"  {r['error']}" if "error" in r else ""
        print(f"  {r['workload']:<40} {r['variant']:<20} {r['median_ms']:>11.4f} {gbps}{flag}")


def timed_row(script, workload, library, variant, device, runs, timed, check=None):
    """One measured row: timed() returns (median_ms, result); check(result), when given, returns
    (problem or None, extra fields). A raise or a problem is noted and becomes the row's error.
    Returns (row, ok)."""
    label = f"{workload} [{variant}]"
    try:
        ms, result = timed()
        problem, extra = check(result) if check else (None, {})
    except Exception as e:  # noqa: BLE001 - reported in the row
        note(script, f"{label}: {type(e).__name__}: {e}")
        return dict(workload=workload, library=library, variant=variant, error=f"{type(e).__name__}: {e}",
                    device=device), False
    row = dict(workload=workload, library=library, variant=variant, median_ms=ms, runs=runs, device=device,
               **extra)
    if problem:
        note(script, f"{label}: {problem}")
        row["error"] = problem
        return row, False
    return row, True
