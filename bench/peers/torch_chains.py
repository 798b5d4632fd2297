#!/usr/bin/env python3
"""PyTorch peer of bench/bench_cuda_chains.cpp: the same elementwise chains, sizes and inputs.

Workloads: chain/<dtype>/len<L>/n<N> (chains_spec.py) and d2d_copy/<dtype>/n<N>, the copy of the
array's bytes (Tensor.copy_) that x_copy compares with. Variants: eager (one kernel per step) and
compile (torch.compile of the same Python function, dynamic=True: one compiled kernel per length and
dtype serves every size, so a run compiles 10 functions rather than 70).

Protocol (torch_timing.py): 1 + L/4 device-to-device copies of 512 MiB keep the GPU busy while Python
enqueues the work, torch.cuda.Event records around the call, the median over the runs after warm-up
(the first compiled call, which compiles, is a warm-up). bytes = the array read plus the result
written. Four entries of each result are checked against the chain computed by NumPy.

Usage: torch_chains.py [OUT.json]. Without PyTorch or a GPU it notes so, writes [] and exits 0. Exit
status 1 when a result is wrong or the eager variant fails; a compile failure is noted and skipped.
"""

import sys

import chains_spec as spec
from peer_output import note, print_table, write_json
from torch_timing import Timer, allow_recompiles, load

WARMUP = 2
SCRIPT = "torch_chains"


def main(argv):
    out_path = argv[1] if len(argv) > 1 else None
    found = load(SCRIPT, out_path)
    if not found:
        return 0
    torch, np, device = found
    print(f"{SCRIPT}: PyTorch {torch.__version__} on {device}")
    allow_recompiles(torch)
    timer = Timer(torch, WARMUP)
    rows, status = [], 0
    eager = {L: spec.chain_function(L, torch.sin) for L in spec.LENGTHS}
    compiled = {L: torch.compile(spec.chain_function(L, torch.sin), dynamic=True) for L in spec.LENGTHS}

    for dtype in spec.DTYPES:
        for n in spec.SIZES:
            # In float64 first, as ndfuse and NumPy compute it (torch's default dtype is float32).
            x = (torch.arange(n, device="cuda", dtype=torch.float64) % 1000 / 1000.0 + 1.0).to(getattr(torch, dtype))
            nbytes = x.numel() * x.element_size()
            runs = spec.runs_for(n)
            dst = torch.empty_like(x)
            copy_ms, _ = timer.median_ms(lambda: dst.copy_(x), runs)
            del dst
            rows.append(dict(workload=spec.copy_workload(dtype, n), library="torch", variant="copy",
                             median_ms=copy_ms, bytes=2 * nbytes, gbps=2 * nbytes / copy_ms / 1e6, x_copy=1.0,
                             runs=runs, device=device))
            indices = spec.check_indices(n)
            index_tensor = torch.tensor(indices, device="cuda")
            for L in spec.LENGTHS:
                name = spec.workload(dtype, L, n)
                for variant, fn, optional in (("eager", lambda: eager[L](x), False),
                                              ("compile", lambda: compiled[L](x), True)):
                    try:
                        ms, r = timer.median_ms(fn, runs, busy=spec.busy_copies(L))
                        if r.dtype != x.dtype:
                            raise TypeError(f"result dtype {r.dtype}, expected {x.dtype}")
                        problem = spec.check(np, dtype, L, indices, r[index_tensor].double().cpu().numpy())
                    except Exception as e:  # noqa: BLE001 - a compile failure is noted, not fatal
                        note(SCRIPT, f"{name} [{variant}]: {type(e).__name__}: {e}")
                        rows.append(dict(workload=name, library="torch", variant=variant,
                                         error=f"{type(e).__name__}: {e}", device=device))
                        status = status if optional else 1
                        continue
                    row = dict(workload=name, library="torch", variant=variant, median_ms=ms, bytes=2 * nbytes,
                               gbps=2 * nbytes / ms / 1e6, x_copy=ms / copy_ms, runs=runs, device=device)
                    if problem:
                        note(SCRIPT, f"{name} [{variant}]: wrong result: {problem}")
                        row["error"] = f"wrong result: {problem}"
                        status = 1
                    rows.append(row)
                    del r
            del x
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
    print_table(rows)
    write_json(out_path, rows)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
