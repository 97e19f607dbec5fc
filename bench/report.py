#!/usr/bin/env python3
"""Turns a fastblake-bench JSON file into the Markdown tables of docs/benchmarks.md.

Usage: bench/report.py RESULTS.json
Medians of the repetitions; ratios are of medians measured in the same run.
"""
import json
import sys


def gbps(row):
    return row["bytes_per_second"] / 1e9


def human(size):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def main(path):
    with open(path) as f:
        data = json.load(f)
    medians = {}
    for row in data["benchmarks"]:
        if row.get("aggregate_name") == "median" and "error_occurred" not in row:
            medians[row["run_name"]] = row
    ctx = data["context"]
    print(f"Machine: {ctx.get('host_name', '?')}, {ctx.get('num_cpus', '?')} CPUs at "
          f"{ctx.get('mhz_per_cpu', '?')} MHz (as reported); compiler: "
          f"{ctx.get('compiler', '?')}; fastblake {ctx.get('fastblake_version', '?')} at commit "
          f"{ctx.get('commit', '?')}; official BLAKE3 C {ctx.get('official_c_version', '?')}; "
          f"{ctx.get('date', '')}.\n")

    backends = []
    sizes = []
    for name in medians:
        parts = name.split("/")
        if parts[1] == "hash" and parts[2] != "official_c":
            if parts[2] not in backends:
                backends.append(parts[2])
            if int(parts[3]) not in sizes:
                sizes.append(int(parts[3]))
    sizes.sort()
    print("One-shot `hash()`, GB/s (median), and the best backend over the official C:\n")
    print("| input | official C | " + " | ".join(backends) + " | best / official |")
    print("|---" * (len(backends) + 3) + "|")
    for size in sizes:
        official = medians.get(f"blake3/hash/official_c/{size}")
        cells = []
        best = 0.0
        for b in backends:
            row = medians.get(f"blake3/hash/{b}/{size}")
            cells.append(f"{gbps(row):.2f}" if row else "-")
            if row:
                best = max(best, gbps(row))
        ratio = f"**{best / gbps(official):.2f}x**" if official else "-"
        off = f"{gbps(official):.2f}" if official else "-"
        print(f"| {human(size)} | {off} | " + " | ".join(cells) + f" | {ratio} |")

    print("\n`hash_many` of 1,000 items against a loop of one-shot `hash()`, GB/s (median):\n")
    print("| backend | item | loop | hash_many | speed-up |")
    print("|---|---|---|---|---|")
    for b in backends:
        for item in (64, 256, 1024):
            many = medians.get(f"blake3/hash_many/{b}/{item}")
            loop = medians.get(f"blake3/hash_loop/{b}/{item}")
            if many and loop:
                print(f"| {b} | {item} B | {gbps(loop):.2f} | {gbps(many):.2f} | "
                      f"{gbps(many) / gbps(loop):.2f}x |")


if __name__ == "__main__":
    main(sys.argv[1])
