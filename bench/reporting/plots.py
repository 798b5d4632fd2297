"""The chain plots: for each dtype, time against size (log-log), one panel per chain length, with
ndfuse fused and eager, every peer variant, and the copy limit (ndfuse's device-to-device copy of the
array's bytes, the same process). Needs matplotlib (Agg backend); without it, says so."""

import re

from .markdown import COLUMNS, label

CHAIN = re.compile(r"^chain/(?P<dtype>\w+)/len(?P<length>\d+)/n(?P<n>\d+)$")
COPY = re.compile(r"^d2d_copy/(?P<dtype>\w+)/n(?P<n>\d+)$")
STYLE = {("ndfuse", "fused"): dict(color="black", linewidth=2.2, marker="o", zorder=4),
         ("ndfuse", "eager"): dict(color="black", linewidth=1.2, marker="o", linestyle=":", zorder=4)}


def chain_series(rows):
    """{dtype: {length: {(library, variant): [(n, ms)]}}} and {dtype: [(n, copy ms)]} (ndfuse's copies)."""
    series, limits = {}, {}
    for r in rows:
        if r["family"] != "chains" or r["median_ms"] is None or r["error"]:
            continue
        m = CHAIN.match(r["workload"])
        if m:
            key = (r["library"], r["variant"])
            by_len = series.setdefault(m["dtype"], {}).setdefault(int(m["length"]), {})
            by_len.setdefault(key, []).append((int(m["n"]), r["median_ms"]))
            continue
        m = COPY.match(r["workload"])
        if m and r["library"] == "cuda":
            limits.setdefault(m["dtype"], []).append((int(m["n"]), r["median_ms"]))
    return series, limits


def write(rows, path_for_dtype, title):
    """Writes one PNG per dtype with chain rows; returns the paths, or None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    series, limits = chain_series(rows)
    order = [k for k, _ in COLUMNS]
    written = []
    for dtype, by_len in sorted(series.items()):
        lengths = sorted(by_len)
        cols = 3
        nrows = (len(lengths) + cols - 1) // cols
        fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 4.2 * nrows), squeeze=False)
        handles = {}
        for ax, length in zip(axes.flat, lengths):
            keys = sorted(by_len[length], key=lambda k: order.index(k) if k in order else len(order))
            for key in keys:
                pts = sorted(by_len[length][key])
                style = STYLE.get(key, dict(marker=".", linewidth=1.0))
                (line,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label(key), **style)
                handles.setdefault(label(key), line)
            if dtype in limits:
                pts = sorted(limits[dtype])
                (line,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], color="gray", linestyle="--",
                                  linewidth=1.5, label="limit (copy)")
                handles.setdefault("limit (copy)", line)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{dtype}, chain of {length}")
            ax.set_xlabel("elements")
            ax.set_ylabel("time (ms)")
            ax.grid(True, which="major", alpha=0.3)
        spare = list(axes.flat)[len(lengths):]
        for ax in spare:
            ax.axis("off")
        legend_ax = spare[0] if spare else axes.flat[-1]
        legend_ax.legend(list(handles.values()), list(handles.keys()), loc="center")
        fig.suptitle(f"Elementwise chains, {dtype}: {title}")
        fig.tight_layout()
        path = path_for_dtype(dtype)
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written
