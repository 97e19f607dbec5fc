#!/usr/bin/env python3
"""Rewrites the generated part of docs/benchmarks.md, between the lines
<!-- published: begin --> and <!-- published: end -->, to show a published run: its summary
table (bench/report.py), links to its artifact and full tables, and its plots.

Usage: bench/publish_docs.py DOCS.md RESULTS_DIR ARTIFACT_FILE_NAME   (scripts/publish runs it)
"""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

BEGIN = "<!-- published: begin -->"
END = "<!-- published: end -->"


def generated(docs, results_dir, artifact):
    relative = os.path.relpath(results_dir, os.path.dirname(docs))
    path = os.path.join(results_dir, artifact)
    medians, context = report.load(path)
    summary = io.StringIO()
    with contextlib.redirect_stdout(summary):
        report.print_summary(medians)
    order = report.FAMILIES + ["cli"]
    plots = sorted((p for p in os.listdir(results_dir) if p.endswith(".png")),
                   key=lambda p: (order.index(p[:-4]) if p[:-4] in order else len(order), p))
    lines = [BEGIN,
             "<!-- Written by scripts/publish from the artifact named below; do not edit. -->",
             "",
             report.machine_line(context),
             "",
             f"Artifact: [{relative}/{artifact}]({relative}/{artifact}); every table of the run: "
             f"[{relative}/tables.md]({relative}/tables.md).",
             "",
             summary.getvalue().rstrip(),
             ""]
    for plot in plots:
        lines += [f"![{plot[:-4]}]({relative}/{plot})", ""]
    lines.append(END)
    return "\n".join(lines)


def main(docs, results_dir, artifact):
    with open(docs) as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        sys.exit(f"{docs}: no '{BEGIN}' ... '{END}' section to rewrite")
    text = text[:start] + generated(docs, results_dir, artifact) + text[end + len(END):]
    with open(docs, "w") as f:
        f.write(text)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(*sys.argv[1:])
