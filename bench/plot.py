#!/usr/bin/python3
"""Plots fastblake-bench JSON artifacts, one PNG per family (blake3, blake2b, blake2s,
blake2bp, blake2sp, sha256), medians of the repetitions:

- above, throughput against input size (log scales): fastblake's rows solid, on the detected
  backend (one thread, the most threads, and automatic), the references in the same run dashed;
- below, fastblake's fastest row over each reference at each size (bench/report.py's summary):
  above the line at 1, fastblake is faster.

and cli.png, whole tools against the tools they replace, as ratios.

Usage: bench/plot.py OUTPUT_DIR ARTIFACT.json   (Debian: python3-matplotlib)
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

SIZE_CLASSES = ("serial", "parallel", "auto")


def curves(medians, context, family):
    """{label: [(bytes, GB/s)]} of one family's single-input rows worth a line."""
    keys = [k for k in medians if k.family == family and k.cls in SIZE_CLASSES and not k.count]
    most = max([k.threads for k in keys] or [0])
    backend = context.get("detected_backend")
    lines = {}
    for k in keys:
        ours = not report.is_reference(k.impl)
        if ours and k.impl != backend:
            continue
        if k.threads and k.threads != most:
            continue
        lines.setdefault(report.label(k), []).append((k.bytes, medians[k]))
    return lines


def ratio_curves(medians, family):
    """{'group: fastblake / reference': [(bytes, ratio)]} from the summary's single inputs."""
    lines = {}
    for c in report.summary(medians):
        if c.family == family and c.group in ("serial", "any threads") and not c.count:
            lines.setdefault(f"{c.group}: over {c.ref_label}", []).append((c.bytes, c.ratio))
    return lines


def style(label):
    reference = report.is_reference(report.impl_of(label))
    return {"linestyle": "--" if reference else "-", "linewidth": 2.0 if reference else 1.5}


def plot_family(family, medians, context, out_dir):
    lines = curves(medians, context, family)
    if not lines:
        return None
    ratios = ratio_curves(medians, family)
    fig, axes = plt.subplots(2 if ratios else 1, 1, figsize=(8, 8 if ratios else 5),
                             squeeze=False)
    top = axes[0][0]
    for label in sorted(lines, key=lambda text: (style(text)["linestyle"], text)):
        points = sorted(lines[label])
        top.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                 label=label, **style(label))
    top.set_xscale("log", base=2)
    top.set_yscale("log")
    top.set_ylabel("GB/s (median)")
    top.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    top.set_title(f"{family}: fastblake (solid) and references (dashed), same run\n"
                  f"{context.get('cpu_model', '?')}, {context.get('num_cpus', '?')} CPUs, "
                  f"commit {context.get('commit', '?')}", fontsize=9)
    top.grid(True, which="both", alpha=0.3)
    top.legend(fontsize=7, ncol=2)
    if ratios:
        bottom = axes[1][0]
        for label in sorted(ratios):
            points = sorted(ratios[label])
            bottom.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                        markersize=3, label=label)
        bottom.axhline(1.0, color="black", linewidth=1)
        bottom.set_xscale("log", base=2)
        bottom.set_yscale("log")
        for axis in (bottom.yaxis.set_major_formatter, bottom.yaxis.set_minor_formatter):
            axis(FuncFormatter(lambda v, _: f"{v:g}x"))
        bottom.set_ylabel("fastblake / reference (above 1: faster)")
        bottom.grid(True, which="both", alpha=0.3)
        bottom.legend(fontsize=7)
    axes[-1][0].set_xlabel("input size (bytes)")
    fig.tight_layout()
    path = os.path.join(out_dir, f"{family}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_cli(medians, context, out_dir):
    bars = [(f"{c.family} {c.shape}: {c.ours_label} / {c.ref_label}", c.ratio)
            for c in report.summary(medians) if c.group == "cli"]
    if not bars:
        return None
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * len(bars)))
    ax.barh([b[0] for b in bars], [b[1] for b in bars], color="tab:blue")
    ax.axvline(1.0, color="black", linewidth=1)
    for i, (_, ratio) in enumerate(bars):
        ax.text(ratio, i, f" {ratio:.2f}x", va="center", fontsize=8)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.set_xlabel("fastblake's speed over the tool's (above 1: faster), median wall-clock")
    ax.set_title(f"cli: whole tools on files in the page cache\n"
                 f"{context.get('cpu_model', '?')}, {context.get('num_cpus', '?')} CPUs, "
                 f"commit {context.get('commit', '?')}", fontsize=9)
    fig.tight_layout()
    path = os.path.join(out_dir, "cli.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(out_dir, path):
    medians, context = report.load(path)
    os.makedirs(out_dir, exist_ok=True)
    for family in report.FAMILIES:
        made = plot_family(family, medians, context, out_dir)
        if made:
            print(made)
    made = plot_cli(medians, context, out_dir)
    if made:
        print(made)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench/plot.py OUTPUT_DIR ARTIFACT.json")
    main(sys.argv[1], sys.argv[2])
