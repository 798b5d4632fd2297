"""The markdown report: one table per benchmark family (workload x library/variant), the references
(copies and direct library calls), and the lists a reader of the run needs: where ndfuse fused
is behind a peer, and where it is above 1.1x its limit."""

# Columns in this order when present; any other (library, variant) gets a column after them.
COLUMNS = (
    (("ndfuse", "fused"), "ndfuse fused"),
    (("ndfuse", "eager"), "ndfuse eager"),
    (("cupy", "eager"), "CuPy"),
    (("cupy", "fuse"), "cupy.fuse"),
    (("cupy", "elementwise_kernel"), "CuPy ElementwiseKernel"),
    (("cupy", "reduction_kernel"), "CuPy ReductionKernel"),
    (("torch", "eager"), "PyTorch"),
    (("torch", "compile"), "torch.compile"),
    (("jax", "jit"), "JAX jit"),
    (("cupy", "cublas_dot"), "cupy.dot (cuBLAS)"),
    (("torch", "dot"), "torch.dot (cuBLAS)"),
    (("cupy", "eager_checked"), "CuPy, info checked"),
)
LABELS = dict(COLUMNS)
FAMILY_ORDER = ("chains", "seed", "devices", "reduce", "views", "random", "linalg", "solvers", "fft")
LIMIT_SLACK = 1.1
BANDWIDTH_BOUND_MS = 0.05  # limits shorter than this are launch latency, not bandwidth
NOISE = 0.05  # "behind" by less than this is listed apart, as within run-to-run noise


def label(key):
    return LABELS.get(key, f"{key[0]} {key[1]}")


def fmt_ms(ms):
    if ms is None:
        return ""
    if ms < 1:
        return f"{ms * 1e3:.3g} us"
    return f"{ms:.0f} ms" if ms >= 1000 else f"{ms:.3g} ms"


def family_sort_key(family):
    return (FAMILY_ORDER.index(family) if family in FAMILY_ORDER else len(FAMILY_ORDER), family)


class Workload:
    """One workload's cells: (library, variant) -> row, plus its limit and reference calls."""

    def __init__(self, family, name):
        self.family, self.name = family, name
        self.cells, self.references = {}, {}

    @property
    def fused(self):
        row = self.cells.get(("ndfuse", "fused"))
        return row["median_ms"] if row else None

    @property
    def limit(self):
        """The fastest direct call where there is one (a move's references are the CUDA runtime's
        copies from pageable and from pinned memory: the pinned one is the link's limit), else the
        copy limit of ndfuse's row (of a peer's row when ndfuse has none)."""
        direct = [row["median_ms"] for row in self.references.values() if row["median_ms"]]
        if direct:
            return min(direct)
        for key in (("ndfuse", "fused"), ("ndfuse", "eager")):
            if key in self.cells and self.cells[key]["limit_ms"]:
                return self.cells[key]["limit_ms"]
        for row in self.cells.values():
            if row["limit_ms"]:
                return row["limit_ms"]
        return None

    def best_peer(self):
        """(time, column label) of the fastest peer without an error, or None."""
        best = None
        for key, row in self.cells.items():
            if key[0] == "ndfuse" or row["error"] or not row["median_ms"]:
                continue
            if best is None or row["median_ms"] < best[0]:
                best = (row["median_ms"], label(key))
        return best


def group(rows):
    """({family: {workload name: Workload}} in first-seen order, reference rows, rows without a time)."""
    families, references, others = {}, [], []
    for r in rows:
        if r["median_ms"] is None and not r["error"]:
            others.append(r)
            continue
        if r["variant"] == "copy":  # peers' copies stay in the JSON; ndfuse's process's are listed
            if r["library"] == "cuda":
                references.append(r)
            continue
        w = families.setdefault(r["family"], {}).setdefault(r["workload"], Workload(r["family"], r["workload"]))
        if r["library"] == "cuda":
            w.references[r["variant"]] = r
            references.append(r)
        else:
            w.cells[(r["library"], r["variant"])] = r
    return families, references, others


def cell(row):
    if row is None:
        return ""
    if row["error"] and not row["median_ms"]:
        return "error"
    text = fmt_ms(row["median_ms"])
    return text + " (wrong)" if row["error"] else text


def family_table(workloads):
    keys = [k for k, _ in COLUMNS if any(k in w.cells for w in workloads)]
    keys += sorted({k for w in workloads for k in w.cells} - set(keys))
    head = ["workload"] + [label(k) for k in keys] + ["limit", "best peer / ndfuse"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in workloads:
        cells = []
        for k in keys:
            text = cell(w.cells.get(k))
            if k == ("ndfuse", "fused") and text and w.fused and w.limit and w.fused > LIMIT_SLACK * w.limit:
                text += " *"
            cells.append(text)
        best = w.best_peer()
        ratio = ""
        if best and w.fused:
            ratio = f"{best[0] / w.fused:.2f} ({best[1]})"
            if best[0] < w.fused:
                ratio = f"**{ratio}**"
        lines.append("| " + " | ".join([w.name] + cells + [fmt_ms(w.limit), ratio]) + " |")
    return lines


def findings(families):
    """(behind by more than NOISE, behind within NOISE, above LIMIT_SLACK x a bandwidth-bound limit)."""
    behind, close, above = [], [], []
    for workloads in families.values():
        for w in workloads.values():
            best = w.best_peer()
            if best and w.fused and best[0] < w.fused:
                if w.fused > (1 + NOISE) * best[0]:
                    behind.append(f"- `{w.name}`: ndfuse fused {fmt_ms(w.fused)}, {best[1]} {fmt_ms(best[0])} "
                                  f"({w.fused / best[0]:.2f}x slower)")
                else:
                    close.append(f"`{w.name}` ({best[1]}, {w.fused / best[0]:.3f}x)")
            limit = w.limit
            if w.fused and limit and limit >= BANDWIDTH_BOUND_MS and w.fused > LIMIT_SLACK * limit:
                above.append(f"- `{w.name}`: {fmt_ms(w.fused)}, {w.fused / limit:.2f}x the limit ({fmt_ms(limit)})")
    return behind, close, above


def host_time_table(rows):
    """The host step's two measures for every library that reports host_us_per_step: the row's time
    (2,000 steps and one sync: the rate a loop gets) and the host's own time per step (batches of 100,
    synced outside the timing, so the device never holds the host back)."""
    found = [r for r in rows if r["workload"] == "host_step_1000" and "host_us_per_step" in r["counters"]]
    if not found:
        return []
    out = ["## Host time per step (host_step_1000)", "",
           "step: wall time per step over 2,000 steps and one sync (the row above); host: the host's own time",
           "per step, in batches of 100 steps timed until the last one returned, synced outside the timing.", "",
           "| library | variant | step | host |", "|---|---|---|---|"]
    order = {"ndfuse": 0, "cuda": 1}
    for r in sorted(found, key=lambda r: (order.get(r["library"], 2), r["library"], r["variant"])):
        step = r["counters"].get("us_per_step")
        out.append(f"| {r['library']} | {r['variant']} | {f'{step:.2f} us' if step else ''} | "
                   f"{r['counters']['host_us_per_step']:.2f} us |")
    return out + [""]


def write(path, rows, gpu, date, sources, commit=None):
    families, references, others = group(rows)
    out = [f"# ndfuse benchmarks on {gpu}", ""]
    out.append(f"Run of {date}" + (f", commit {commit}" if commit else "") + f". Sources: {', '.join(sources)}.")
    out += [
        "",
        "Times are medians (bench/README.md gives the protocol). ndfuse fused is the default, lazy mode (for a",
        "workload with no eager variant, its only time); ndfuse eager is nf::eager_scope, one kernel per op.",
        "CuPy, PyTorch and JAX ran on the same GPU in the same run; JAX times are wall clock around a loop",
        "of calls (it has no events), so for small arrays they include its dispatch. limit: the direct",
        "cuBLAS/cuFFT call where the C++ benchmark makes one (for the host step: one bare cuLaunchKernel",
        "per step), else a device-to-device copy of the bytes the workload must move, timed in the same",
        "process. `*`: ndfuse fused above 1.1x the limit.",
        "best peer / ndfuse: the fastest peer's time over ndfuse fused (below 1, in bold: a peer is faster).",
        "",
    ]
    for family in sorted(families, key=family_sort_key):
        out += [f"## {family}", ""] + family_table(list(families[family].values())) + [""]
    behind, close, above = findings(families)
    out += [f"## Where ndfuse fused is behind a peer by more than {NOISE:.0%}", ""] + (behind or ["- none"]) + [""]
    if close:
        out += [f"Behind by {NOISE:.0%} or less (within run-to-run noise): " + ", ".join(close) + ".", ""]
    out += [f"## Where ndfuse fused is above {LIMIT_SLACK}x the limit (limits of {fmt_ms(BANDWIDTH_BOUND_MS)} "
            "or more; shorter ones are launch latency)", ""] + (above or ["- none"]) + [""]
    out += host_time_table(rows)
    if references:
        out += ["## References (copies and direct library calls)", "", "| family | name | library | time | GB/s |",
                "|---|---|---|---|---|"]
        for r in references:
            gbps = r["counters"].get("GB/s") or r["counters"].get("gbps")
            out.append(f"| {r['family']} | {r['workload']} | {r['library']} {r['variant']} | "
                       f"{fmt_ms(r['median_ms'])} | {f'{gbps:.0f}' if gbps else ''} |")
        out.append("")
    if others:
        out += ["## Counters of rows that are not timings", ""]
        for r in others:
            counters = ", ".join(f"{k} {v:.4g}" for k, v in r["counters"].items())
            out.append(f"- {r['family']} `{r['workload']}` ({r['library']} {r['variant']}): {counters}")
        out.append("")
    with open(path, "w") as f:
        f.write("\n".join(out))
