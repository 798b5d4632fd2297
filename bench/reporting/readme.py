"""The results block of bench/README.md: between its `<!-- results:begin -->` and `<!-- results:end -->`
markers, the GPU, the date, a headline table (every workload, but for the chains only the largest
size of each dtype and length) and one chain plot, with a link to the full report."""

import re

from .markdown import family_sort_key, family_table

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
CHAIN_SIZE = re.compile(r"^chain/.*/n(\d+)$")


def headline(workloads):
    """The chains at their largest size; other families whole."""
    sizes = [int(m[1]) for w in workloads if (m := CHAIN_SIZE.match(w.name))]
    if not sizes:
        return workloads
    largest = max(sizes)
    return [w for w in workloads if not (m := CHAIN_SIZE.match(w.name)) or int(m[1]) == largest]


def update_readme(path, families, gpu, date, report_link, plot_links):
    with open(path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print(f"report: {path} has no {BEGIN} ... {END} block; not updated")
        return
    block = [BEGIN, "", f"Latest run: **{gpu}**, {date} (full report: [{report_link}]({report_link})).", ""]
    for family in sorted(families, key=family_sort_key):
        block += [f"**{family}**", ""] + family_table(headline(list(families[family].values()))) + [""]
    if plot_links:
        block += [f"![chains]({plot_links[0]})", ""]
    block.append(END)
    start, end = text.index(BEGIN), text.index(END) + len(END)
    with open(path, "w") as f:
        f.write(text[:start] + "\n".join(block) + text[end:])
