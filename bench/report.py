#!/usr/bin/env python3
"""Turns a fastblake-bench JSON file into the Markdown tables of docs/benchmarks.md.

Usage: bench/report.py RESULTS.json
Medians of the repetitions; ratios are of medians measured in the same run.
"""
import json
import re
import sys


def gbps(row):
    return row["bytes_per_second"] / 1e9


def human(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def main(path):
    with open(path) as f:
        data = json.load(f)
    medians = {}
    for row in data["benchmarks"]:
        if row.get("aggregate_name") == "median" and "error_occurred" not in row:
            # Google Benchmark appends /iterations:N and /real_time to some rows' names.
            medians[re.sub(r"/(iterations:\d+|real_time)", "", row["run_name"])] = row
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
        if len(parts) == 4 and parts[1] == "hash" and parts[2] != "official_c":
            if parts[2] not in backends:
                backends.append(parts[2])
            if int(parts[3]) not in sizes:
                sizes.append(int(parts[3]))
    sizes.sort()
    if sizes:
        one_shot_tables(medians, backends, sizes)
    threads_table(medians)
    files_table(medians)
    blake2_tables(medians)


def one_shot_tables(medians, backends, sizes):
    print("One-shot `hash_serial()` (one thread), GB/s (median), and the best backend over the "
          "official C:\n")
    print("| input | official C | " + " | ".join(backends) + " | best / official |")
    print("|---" * (len(backends) + 3) + "|")
    for size in sizes:
        official = medians.get(f"blake3/hash/official_c/{size}")
        if not any(medians.get(f"blake3/hash/{b}/{size}") for b in backends):
            continue
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


def threads_table(medians):
    """Serial, parallel on 1..N threads and automatic hashing, next to the Rust crate."""
    sizes = sorted({int(n.split("/")[-1]) for n in medians
                    if n.startswith("blake3/threads/serial/")})
    if not sizes:
        return
    counts = sorted({int(n.split("/")[3][:-1]) for n in medians
                     if n.startswith("blake3/threads/parallel/")})
    rust_counts = sorted({int(n.split("/")[3][:-1]) for n in medians
                          if n.startswith("blake3/threads/rust_update_rayon/")})
    top = counts[-1] if counts else None
    columns = ["serial"] + [f"parallel {t}t" for t in counts] + ["auto"]
    columns += ["Rust serial"] + [f"Rust update_rayon {t}t" for t in rust_counts]
    columns += [f"parallel {top}t / serial", "auto / serial"]
    if rust_counts:
        columns += [f"parallel {top}t / Rust {rust_counts[-1]}t"]
    print("\nThreads: one-shot hashing on the detected backend, GB/s (median, wall-clock):\n")
    print("| input | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")

    def cell(name):
        row = medians.get(name)
        return gbps(row) if row else None

    for size in sizes:
        serial = cell(f"blake3/threads/serial/{size}")
        values = [serial] + [cell(f"blake3/threads/parallel/{t}t/{size}") for t in counts]
        auto = cell(f"blake3/threads/auto/{size}")
        values += [auto, cell(f"blake3/threads/rust_serial/{size}")]
        values += [cell(f"blake3/threads/rust_update_rayon/{t}t/{size}") for t in rust_counts]
        text = [f"{v:.2f}" if v else "-" for v in values]
        best = cell(f"blake3/threads/parallel/{top}t/{size}")
        ratios = [(best, serial), (auto, serial)]
        if rust_counts:
            ratios.append((best, cell(f"blake3/threads/rust_update_rayon/{rust_counts[-1]}t/{size}")))
        text += [f"**{a / b:.2f}x**" if a and b else "-" for a, b in ratios]
        print(f"| {human(size)} | " + " | ".join(text) + " |")

    out_sizes = sorted({int(n.split("/")[-1]) for n in medians
                        if n.startswith("blake3/threads/output/")})
    if out_sizes:
        print("\nExtendable output (`output_reader::fill` with a pool), GB/s (median):\n")
        print("| output | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in counts) +
              f" | {top}t / 1t |")
        print("|---" * (len(counts) + 2) + "|")
        for size in out_sizes:
            values = [cell(f"blake3/threads/output/{t}t/{size}") for t in counts]
            ratio = (f"**{values[-1] / values[0]:.2f}x**" if values[0] and values[-1] else "-")
            print(f"| {human(size)} | " + " | ".join(f"{v:.2f}" if v else "-" for v in values) +
                  f" | {ratio} |")

    cold_sizes = sorted({int(n.split("/")[-1]) for n in medians
                         if n.startswith("blake3/threads/cold_serial/")})
    if cold_sizes:
        print("\nCold calls (each after 2 ms without work, the pool's workers asleep), GB/s "
              "(median):\n")
        print(f"| input | serial | auto | parallel {top}t | auto / serial | parallel / serial |")
        print("|---|---|---|---|---|---|")
        for size in cold_sizes:
            serial = cell(f"blake3/threads/cold_serial/{size}")
            auto = cell(f"blake3/threads/cold_auto/{size}")
            par = cell(f"blake3/threads/cold_parallel/{top}t/{size}")
            text = [f"{v:.2f}" if v else "-" for v in (serial, auto, par)]
            text += [f"{a / serial:.2f}x" if a and serial else "-" for a in (auto, par)]
            print(f"| {human(size)} | " + " | ".join(text) + " |")




def files_table(medians):
    """BLAKE3 file hashing per strategy, warm (page cache) and cold."""
    classes = ["file-read", "file-mmap", "file-mmap-parallel"]
    columns = [c + suffix for c in classes for suffix in ("", "-cold")]
    columns = [c for c in columns if any(n.startswith(f"blake3/{c}/") for n in medians)]
    if not columns:
        return
    sizes = sorted({int(n.split("/")[-1]) for n in medians
                    if n.split("/")[1] in columns and n.startswith("blake3/")})
    print("\nFiles: BLAKE3 of a file by strategy, in the page cache and (-cold) read from the "
          "device each time, GB/s (median, wall-clock):\n")
    print("| file | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for size in sizes:
        cells = []
        for c in columns:
            row = medians.get(f"blake3/{c}/{size}")
            cells.append(f"{gbps(row):.2f}" if row else "-")
        print(f"| {human(size)} | " + " | ".join(cells) + " |")


BACKEND_ORDER = ["avx512", "avx2", "sse41", "sse2", "neon", "portable"]


def backend_order(impl):
    """Best backend first, each backend's two-thread row after all one-thread rows."""
    base = impl.removesuffix("_2threads")
    rank = BACKEND_ORDER.index(base) if base in BACKEND_ORDER else len(BACKEND_ORDER)
    return (impl != base, rank, impl)


def blake2_tables(medians):
    """BLAKE2 variants per backend next to the references, and hash_many."""
    for variant, refs in (("blake2b", ["openssl", "libsodium", "libb2", "rust"]),
                          ("blake2s", ["openssl", "libb2", "rust"]),
                          ("blake2bp", ["libb2", "rust"]),
                          ("blake2sp", ["libb2", "rust"])):
        names = [n for n in medians if n.startswith(variant + "/")]
        if not names:
            continue
        sizes = sorted({int(n.split("/")[-1]) for n in names})
        impls = []
        for n in names:
            impl = n.split("/")[1]
            if impl not in impls and impl not in refs:
                impls.append(impl)
        impls.sort(key=backend_order)
        refs = [r for r in refs if any(n.split("/")[1] == r for n in names)]
        print(f"\n{variant}, one thread unless named, GB/s (median), and fastblake's best over the "
              "fastest reference:\n")
        print("| input | " + " | ".join(impls + refs) + " | best / fastest reference |")
        print("|---" * (len(impls) + len(refs) + 2) + "|")
        for size in sizes:
            def value(impl):
                row = medians.get(f"{variant}/{impl}/{size}")
                return gbps(row) if row else None
            ours = [value(i) for i in impls]
            theirs = [value(r) for r in refs]
            best = max([v for v in ours if v] or [0])
            fastest = max([v for v in theirs if v] or [0])
            ratio = f"**{best / fastest:.2f}x**" if best and fastest else "-"
            cells = [f"{v:.2f}" if v else "-" for v in ours + theirs]
            print(f"| {human(size)} | " + " | ".join(cells) + f" | {ratio} |")
    for family in ("blake2b_many", "blake2s_many"):
        names = [n for n in medians if n.startswith(family + "/")]
        if not names:
            continue
        shapes = []
        impls = []
        for n in names:
            _, impl, count, total = n.split("/")
            if (count, total) not in shapes:
                shapes.append((count, total))
            if impl not in impls:
                impls.append(impl)
        ours = sorted((i for i in impls if i != "rust"), key=backend_order)
        print(f"\n{family}: many inputs at once, GB/s (median), and the best backend over the "
              "Rust crate's hash_many:\n")
        print("| inputs | " + " | ".join(ours) + " | rust | best / rust |")
        print("|---" * (len(ours) + 3) + "|")
        for count, total in sorted(shapes, key=lambda s: (int(s[1]), int(s[0][1:]))):
            def value(impl):
                row = medians.get(f"{family}/{impl}/{count}/{total}")
                return gbps(row) if row else None
            cells = [value(i) for i in ours]
            rust = value("rust")
            best = max([v for v in cells if v] or [0])
            ratio = f"**{best / rust:.2f}x**" if best and rust else "-"
            label = f"{count[1:]} x {human(int(total) // int(count[1:]))}"
            rust_cell = f"{rust:.2f}" if rust else "-"
            print(f"| {label} | " + " | ".join(f"{v:.2f}" if v else "-" for v in cells)
                  + f" | {rust_cell} | {ratio} |")


if __name__ == "__main__":
    main(sys.argv[1])
