#!/usr/bin/python3
"""Plots fastblake-bench JSON artifacts: throughput against input size, one PNG per family
(BLAKE3 one-shot, BLAKE3 on threads, BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp, SHA-256), fastblake's
rows as solid lines and the references in the same run dashed, medians of the repetitions.

Usage: bench/plot.py OUTPUT_DIR ARTIFACT.json...   (Debian: python3-matplotlib)
"""
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Rows that are references rather than fastblake, by family.
REFERENCES = {"official_c", "openssl", "libsodium", "libb2", "rust", "rust_serial",
              "rust_update_rayon"}


def medians(paths):
    rows = {}
    context = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = context or data["context"]
        for row in data["benchmarks"]:
            if row.get("aggregate_name") == "median" and "error_occurred" not in row:
                name = re.sub(r"/(iterations:\d+|real_time)", "", row["run_name"])
                rows[name] = row["bytes_per_second"] / 1e9
    return rows, context


def series(rows):
    """{family: {implementation: [(size, GB/s)]}} from the row names."""
    families = {}
    for name, gbps in rows.items():
        parts = name.split("/")
        if parts[0] == "blake3" and parts[1] == "hash" and len(parts) == 4:
            family, impl, size = "blake3", parts[2], parts[3]
        elif parts[0] == "blake3" and parts[1] == "threads" and len(parts) in (4, 5):
            if parts[2].startswith("cold"):
                continue
            impl = parts[2] if len(parts) == 4 else f"{parts[2]} {parts[3]}"
            family, size = "blake3 threads", parts[-1]
        elif parts[0] in ("blake2b", "blake2s", "blake2bp", "blake2sp", "sha256") and len(parts) == 3:
            family, impl, size = parts
        else:
            continue
        families.setdefault(family, {}).setdefault(impl, []).append((int(size), gbps))
    return families


def is_reference(impl):
    return impl.split(" ")[0] in REFERENCES


def plot(family, impls, context, out_dir):
    fig, ax = plt.subplots(figsize=(8, 5))
    for impl in sorted(impls, key=lambda i: (is_reference(i), i)):
        points = sorted(impls[impl])
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                linestyle="--" if is_reference(impl) else "-",
                linewidth=2.2 if is_reference(impl) else 1.4, label=impl)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("input size (bytes)")
    ax.set_ylabel("GB/s (median)")
    ax.set_title(f"{family}: fastblake (solid) and references (dashed)\n"
                 f"{context.get('cpu_model', '?')}, {context.get('num_cpus', '?')} CPUs, "
                 f"commit {context.get('commit', '?')}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    path = os.path.join(out_dir, family.replace(" ", "-") + ".png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(out_dir, paths):
    rows, context = medians(paths)
    os.makedirs(out_dir, exist_ok=True)
    for family, impls in sorted(series(rows).items()):
        print(plot(family, impls, context, out_dir))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
