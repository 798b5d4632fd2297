#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_reduce.cpp: the same reductions, sizes and inputs (reduce_spec.py),
timed the same way.

Workloads (names match the C++ benchmark's "<op>/<input>" prefix):
  norm/float64_2GB, sum/float64_2GB, sum_a_times_b/float64_2x2GB        2.5e8 float64 per input
  sum_axis{1,0}/float32_{16384x16384, 67108864x4, 4x67108864}           1 GiB float32
  sum_axis{1,0}/float64_16384x8192                                      1 GiB float64
  sum_axis0/float16_16384x32768, sum_axis0/complex64_16384x8192         1 GiB float16, complex64
  mean_axis1_lazy/float32_16384x16384                                   mean(y * 2 + 1, dim=1)
  d2d_copy/{2GB,4GB,1GiB}                                               the copies the limits come from
Variants: eager (torch.linalg.vector_norm, torch.sum, torch.mean), compile (torch.compile of the same
call, dynamic=False: one compiled kernel per shape) and, for sum(a * b), dot (torch.dot, cuBLAS).

Protocol (torch_timing.py): a 512 MiB device-to-device copy keeps the GPU busy while Python enqueues
the work, torch.cuda.Event records around the call, the median over the runs after warm-up (which
compiles). bytes = inputs read + result written; x_read_limit = time over the time to move those
bytes at the bandwidth of a copy of the input bytes timed here; copy_bw_frac is its inverse. Every
result is checked against closed-form sums.

Usage: torch_reduce.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong or an eager variant fails; a compile failure is noted and skipped.
"""

import sys

import reduce_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import Timer, allow_recompiles, load

WARMUP = 3
SCRIPT = "torch_reduce"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    allow_recompiles(torch)
    timer = Timer(torch, WARMUP)
    rows, copy_ms = [], {}
    status = 0

    def copy_time(nbytes):
        """Median time of a device-to-device copy of nbytes (moves 2 * nbytes), once per size."""
        if nbytes not in copy_ms:
            src = torch.ones(nbytes, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            copy_ms[nbytes], _ = timer.median_ms(lambda: dst.copy_(src), 20)
            del src, dst
            torch.cuda.empty_cache()
        return copy_ms[nbytes]

    def measure(workload, variant, fn, input_bytes, runs, check, optional=False):
        nonlocal status
        try:
            ms, result = timer.median_ms(fn, runs)
            problem = check(result)
        except Exception as e:  # noqa: BLE001 - reported in the row
            note(SCRIPT, f"{workload} [{variant}]: {type(e).__name__}: {e}")
            rows.append(dict(workload=workload, library="torch", variant=variant, error=f"{type(e).__name__}: {e}",
                             device=device))
            status = status if optional else 1
            return
        moved = input_bytes + result.numel() * result.element_size()
        limit_ms = moved / (2 * input_bytes / copy_time(input_bytes))
        row = dict(workload=workload, library="torch", variant=variant, median_ms=ms, bytes=moved,
                   gbps=moved / ms / 1e6, x_read_limit=ms / limit_ms, copy_bw_frac=limit_ms / ms, runs=runs,
                   device=device)
        if problem:
            note(SCRIPT, f"{workload} [{variant}]: wrong result: {problem}")
            row["error"] = f"wrong result: {problem}"
            status = 1
        rows.append(row)

    def both(workload, eager_fn, args, input_bytes, runs, check):
        """The eager call and torch.compile of it, on the same arguments."""
        measure(workload, "eager", lambda: eager_fn(*args), input_bytes, runs, check)
        compiled = torch.compile(eager_fn, dynamic=False)
        measure(workload, "compile", lambda: compiled(*args), input_bytes, runs, check, optional=True)

    def scalar(expected):
        return lambda r: spec.check_scalar(float(r), expected)

    # Copies first, while nothing else is allocated (the 4 GB copy needs 8 GB).
    for label, nbytes in spec.copy_rows():
        ms = copy_time(nbytes)
        rows.append(dict(workload=f"d2d_copy/{label}", library="torch", variant="copy", median_ms=ms,
                         bytes=2 * nbytes, gbps=2 * nbytes / ms / 1e6, x_read_limit=1.0, copy_bw_frac=1.0, runs=20,
                         device=device))

    # ---- 1. full reductions of 2.5e8 float64 ----
    idx = torch.arange(spec.FULL_ELEMENTS, device="cuda", dtype=torch.float64) % 1000
    a = idx / 1000.0 + 1.0
    b = 2.0 - idx / 1000.0
    del idx
    full = spec.FULL_ELEMENTS * 8
    expected = spec.full_expected()

    def norm_fn(v):
        return torch.linalg.vector_norm(v)

    def sum_fn(v):
        return torch.sum(v)

    def sum_product_fn(x, y):
        return torch.sum(x * y)

    both("norm/float64_2GB", norm_fn, (a,), full, spec.FULL_RUNS, scalar(expected["norm"]))
    both("sum/float64_2GB", sum_fn, (a,), full, spec.FULL_RUNS, scalar(expected["sum"]))
    both("sum_a_times_b/float64_2x2GB", sum_product_fn, (a, b), 2 * full, spec.FULL_RUNS, scalar(expected["dot"]))
    measure("sum_a_times_b/float64_2x2GB", "dot", lambda: torch.dot(a, b), 2 * full, spec.FULL_RUNS,
            scalar(expected["dot"]), optional=True)
    del a, b
    torch.cuda.empty_cache()

    # ---- 2. row and column sums of 1 GiB float32; 3. mean of a lazy expression ----
    def row_sum_fn(v):
        return torch.sum(v, dim=1)

    def col_sum_fn(v):
        return torch.sum(v, dim=0)

    def lazy_mean_fn(v):
        return torch.mean(v * 2 + 1, dim=1)

    def matrix(rows_, cols_, dtype):
        col = (torch.arange(rows_, device="cuda") % 7).to(torch.float32) * 0.125
        row = (torch.arange(cols_, device="cuda", dtype=torch.float64) % 1000 / 1000.0 + 1.0).to(torch.float32)
        x = (col[:, None] + row[None, :]).contiguous().to(getattr(torch, dtype))
        return x * (1 + 2j) if dtype == "complex64" else x

    cases = [(r_, c_, "float32") for r_, c_ in spec.shapes()] + [(*spec.float64_shape(), "float64")]
    for rows_, cols_, dtype in cases:
        x = matrix(rows_, cols_, dtype)
        m = spec.Matrix(np, rows_, cols_)
        shape = spec.shape_name(rows_, cols_, dtype)
        matrix_bytes = x.numel() * x.element_size()
        both(f"sum_axis1/{shape}", row_sum_fn, (x,), matrix_bytes, spec.MATRIX_RUNS,
             lambda r: spec.check_vector(r.cpu().numpy(), rows_, m.row_sum))
        both(f"sum_axis0/{shape}", col_sum_fn, (x,), matrix_bytes, spec.MATRIX_RUNS,
             lambda r: spec.check_vector(r.cpu().numpy(), cols_, m.col_sum))
        if (rows_, cols_) == (spec.SQUARE, spec.SQUARE):
            both(f"mean_axis1_lazy/{shape}", lazy_mean_fn, (x,), matrix_bytes, spec.MATRIX_RUNS,
                 lambda r: spec.check_vector(r.cpu().numpy(), rows_, m.lazy_mean))
        del x
        torch.cuda.empty_cache()
    for rows_, cols_, dtype in spec.column_cases():  # the column kernel at 2- and 8-byte elements
        x = matrix(rows_, cols_, dtype)
        m = spec.Matrix(np, rows_, cols_, dtype)
        both(f"sum_axis0/{spec.shape_name(rows_, cols_, dtype)}", col_sum_fn, (x,), x.numel() * x.element_size(),
             spec.MATRIX_RUNS, lambda r: spec.check_vector(r.cpu().numpy(), cols_, m.col_sum))
        del x
        torch.cuda.empty_cache()

    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
