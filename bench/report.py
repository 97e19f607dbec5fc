#!/usr/bin/env python3
"""Turns fastblake-bench JSON artifacts into the Markdown tables of docs/benchmarks.md.

Usage:
  bench/report.py ARTIFACT.json [--summary-only] [--link URL]
      a summary (fastblake's best against each reference, same run) and one table per
      family and timing class; --link names the artifact the tables came from.
  bench/report.py --compare OLD.json NEW.json [--tolerance 5]
      the summary's ratios in both runs, side by side; exit status 1 if any moved by more
      than the tolerance (percent).

Row names are <family>/<class>/<implementation>[/<threads>t][/x<count>]/<bytes>
(bench/common.hpp). Medians of the repetitions; every ratio is of two medians from one run.
"""
import argparse
import json
import re
import sys
from collections import namedtuple

# The implementations that are not fastblake, in the order their columns appear.
REFERENCES = ["official_c", "rust", "rust_rayon", "libb2", "openssl", "libsodium",
              "official_b3sum", "coreutils_b2sum", "coreutils_sha256sum", "coreutils_cat",
              "cuda_memcpy", "blake3_hash"]
BACKENDS = ["avx512", "avx2", "sse41", "sse2", "neon", "portable"]
FAMILIES = ["blake3", "blake2b", "blake2s", "blake2bp", "blake2sp", "sha256", "bao"]
CLASSES = ["serial", "parallel", "auto", "batch", "xof", "serial-idle", "auto-idle",
           "parallel-idle", "file-read", "file-read-cold", "file-mmap", "file-mmap-cold",
           "file-mmap-parallel", "file-mmap-parallel-cold", "file-auto", "file-auto-cold", "cli", "cli-cold", "gpu-resident",
           "gpu-end-to-end", "gpu-batch", "gpu-file", "encode", "encode-outboard", "decode",
           "decode-outboard"]
CLASS_TEXT = {
    "serial": "one thread",
    "parallel": "a pool of N threads (Nt)",
    "auto": "the library chooses the threads",
    "batch": "many inputs in one call",
    "xof": "extendable output on N threads",
    "serial-idle": "one call after 2 ms idle, one thread",
    "auto-idle": "one call after 2 ms idle, the pool's workers asleep",
    "parallel-idle": "one call after 2 ms idle on a pool of N threads",
    "file-read": "a file read with read(), page cache warm",
    "file-read-cold": "a file read with read(), dropped from the page cache each time",
    "file-mmap": "a mapped file, page cache warm",
    "file-mmap-cold": "a mapped file, dropped from the page cache each time",
    "file-mmap-parallel": "a mapped file on the pool, page cache warm",
    "file-mmap-parallel-cold": "a mapped file on the pool, dropped from the page cache each time",
    "file-auto": "a file as the library chooses (BLAKE3: read in parts on the pool), page cache warm",
    "file-auto-cold": "a file as the library chooses, dropped from the page cache each time",
    "cli": "whole tools on files in the page cache, one process a call (Nt: told to use N "
           "threads; -j2: two files at once)",
    "cli-cold": "whole tools on a file dropped from the page cache before each run; cat reads it "
                "(the device's limit)",
    "gpu-resident": "BLAKE3 of input already in GPU memory",
    "gpu-end-to-end": "BLAKE3 of host memory (pageable, or -pinned), next to cudaMemcpy of the "
                      "same bytes from pinned memory",
    "gpu-batch": "many inputs in one GPU buffer, one digest each",
    "gpu-file": "a file in the page cache, hashed on the GPU",
    "encode": "Bao's combined encoding in memory, next to blake3::hash() of the same input on "
              "the same threads",
    "encode-outboard": "Bao's outboard encoding in memory, next to blake3::hash()",
    "decode": "a combined Bao encoding checked into a buffer, next to blake3::hash()",
    "decode-outboard": "an outboard and its input checked into a buffer, next to "
                       "blake3::hash()",
}
# The summary's groups, each comparing fastblake's fastest row with each reference's fastest
# among the classes named: "any threads" is the fastest way each library has to hash one
# input, on one thread or many.
SUMMARY_GROUPS = {"serial": ["serial", "any threads"], "parallel": ["any threads"],
                  "auto": ["any threads"], "batch": ["batch"], "cli": ["cli"],
                  "cli-cold": ["cli-cold"],
                  "gpu-end-to-end": ["gpu-end-to-end"]}
GROUP_ORDER = ["serial", "any threads", "batch", "cli", "cli-cold", "gpu-end-to-end"]

Row = namedtuple("Row", "family cls impl threads count bytes")
NAME = re.compile(r"^(?P<family>[a-z0-9]+)/(?P<cls>[a-z-]+)/(?P<impl>[a-z0-9_-]+)"
                  r"(?:/(?P<threads>\d+)t)?(?:/x(?P<count>\d+))?/(?P<bytes>\d+)"
                  r"(?:/iterations:\d+)?(?:/real_time)?$")


def parse(name):
    m = NAME.match(name)
    if not m:
        return None
    return Row(m["family"], m["cls"], m["impl"], int(m["threads"] or 0), int(m["count"] or 0),
               int(m["bytes"]))


def load(path):
    """({Row: median GB/s}, context) of an artifact."""
    with open(path) as f:
        data = json.load(f)
    medians = {}
    for row in data["benchmarks"]:
        if row.get("aggregate_name") == "median" and "error_occurred" not in row:
            key = parse(row["run_name"])
            if key:
                medians[key] = row["bytes_per_second"] / 1e9
    return medians, data["context"]


# The official C built with one x86 level's kernels only: official_c_<level>, paired with
# fastblake's backend <level>.
LEVELS = ["sse2", "sse41", "avx2", "avx512"]
LEVEL_PREFIX = "official_c_"


def level_of(impl):
    """The x86 level of a per-level official build, or None."""
    level = impl[len(LEVEL_PREFIX):] if impl.startswith(LEVEL_PREFIX) else None
    return level if level in LEVELS else None


def is_reference(impl):
    return impl in REFERENCES or level_of(impl) is not None


def impl_of(label_text):
    """The implementation in a label() text."""
    words = label_text.split()
    if len(words) > 1 and re.fullmatch(r"\d+t", words[-1]):
        words.pop()
    return words[-1]


def impl_order(impl):
    """fastblake's backends best first (each -loop or -j2 variant after its base), then the
    references in REFERENCES order."""
    if level_of(impl):
        return (1, len(REFERENCES) + LEVELS.index(level_of(impl)), impl)
    if is_reference(impl):
        return (1, REFERENCES.index(impl), impl)
    base = re.sub(r"-(loop|j\d+)$", "", impl)
    rank = BACKENDS.index(base) if base in BACKENDS else len(BACKENDS)
    return (0, rank, impl != base, impl)


def human(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} B"


def shape_text(count, size):
    return f"{count:,} x {human(size // count)}" if count else human(size)


def column(impl, threads):
    return f"{impl} {threads}t" if threads else impl


def fmt(value):
    return f"{value:.2f}" if value is not None else "-"


Comparison = namedtuple("Comparison", "family group shape ours_label ours ref_label ref ratio "
                                       "count bytes")


def summary(medians):
    """[Comparison]: fastblake's fastest row against each reference's fastest, per family,
    summary group, threads (cli only) and input."""
    groups = {}
    for key, value in medians.items():
        for group in SUMMARY_GROUPS.get(key.cls, []):
            threads = key.threads if group in ("cli", "cli-cold") else 0
            where = (key.family, group, threads, key.count, key.bytes)
            groups.setdefault(where, []).append((key, value))
    lines = []
    for where in sorted(groups, key=lambda w: (FAMILIES.index(w[0]) if w[0] in FAMILIES else 99,
                                               GROUP_ORDER.index(w[1]), w[2], w[4], w[3])):
        family, group, _, count, size = where
        rows = groups[where]
        ours = [r for r in rows if not is_reference(r[0].impl)]
        # "any threads" only where some row used threads: otherwise it repeats "serial".
        if not ours or (group == "any threads" and all(r[0].cls == "serial" for r in rows)):
            continue
        best_key, best = max(ours, key=lambda r: r[1])
        refs = {}
        for key, value in rows:
            # Per-level builds are paired with their own level (level_pairs), not the best.
            if level_of(key.impl):
                continue
            if is_reference(key.impl) and value > refs.get(key.impl, (None, 0))[1]:
                refs[key.impl] = (key, value)
        for impl in sorted(refs, key=impl_order):
            ref_key, ref = refs[impl]
            lines.append(Comparison(family, group, shape_text(count, size), label(best_key), best,
                                    label(ref_key), ref, best / ref, count, size))
    return lines


def label(key):
    """A row's implementation, threads and (where not implied by the group) class."""
    text = column(key.impl, key.threads)
    return text if key.cls in ("serial", "batch", "cli", "cli-cold") else f"{key.cls} {text}"


def print_summary(medians):
    lines = summary(medians)
    if not lines:
        return
    print("fastblake's fastest row against each reference's fastest, same run, GB/s (median) "
          "and ratio:\n")
    print("| family | class | input | fastblake | GB/s | reference | GB/s | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for family, group, shape, ours_label, ours, ref_label, ref, ratio, _, _ in lines:
        print(f"| {family} | {group} | {shape} | {ours_label} | {ours:.2f} | {ref_label} | "
              f"{ref:.2f} | **{ratio:.2f}x** |")


LevelPair = namedtuple("LevelPair", "level bytes ours official ratio")


def level_pairs(medians):
    """[LevelPair]: each fastblake x86 backend against the official C built with only that
    level's kernels, one thread, per input size."""
    pairs = []
    for level in LEVELS:
        sizes = sorted(k.bytes for k in medians
                       if k.family == "blake3" and k.cls == "serial"
                       and k.impl == LEVEL_PREFIX + level)
        for size in sizes:
            ours = medians.get(Row("blake3", "serial", level, 0, 0, size))
            official = medians[Row("blake3", "serial", LEVEL_PREFIX + level, 0, 0, size)]
            if ours:
                pairs.append(LevelPair(level, size, ours, official, ours / official))
    return pairs


def print_level_pairs(medians):
    pairs = level_pairs(medians)
    if not pairs:
        return
    levels = [level for level in LEVELS if any(p.level == level for p in pairs)]
    sizes = sorted({p.bytes for p in pairs})
    by = {(p.level, p.bytes): p for p in pairs}
    print("\nBLAKE3 on one thread, each backend against the official C built with only that "
          "level's kernels (official_c_<level>), same run; GB/s (median), ours / official and "
          "ratio:\n")
    print("| input | " + " | ".join(levels) + " |")
    print("|---" * (len(levels) + 1) + "|")
    for size in sizes:
        cells = []
        for level in levels:
            p = by.get((level, size))
            cells.append(f"{p.ours:.2f} / {p.official:.2f} **{p.ratio:.2f}x**" if p else "-")
        print(f"| {human(size)} | " + " | ".join(cells) + " |")


def class_tables(medians):
    """One table per family and class: inputs down, implementations (and threads) across."""
    pairs = sorted({(k.family, k.cls) for k in medians},
                   key=lambda p: (FAMILIES.index(p[0]) if p[0] in FAMILIES else 99,
                                  CLASSES.index(p[1]) if p[1] in CLASSES else 99))
    for family, cls in pairs:
        keys = [k for k in medians if k.family == family and k.cls == cls]
        columns = sorted({(k.impl, k.threads) for k in keys},
                         key=lambda c: (impl_order(c[0]), c[1]))
        shapes = sorted({(k.count, k.bytes) for k in keys}, key=lambda s: (s[1], s[0]))
        ours = [c for c in columns if not is_reference(c[0])]
        refs = [c for c in columns if is_reference(c[0])]
        ratio = bool(ours and refs)
        print(f"\n### {family}: {cls}\n\n{CLASS_TEXT.get(cls, cls)}; GB/s (median)"
              + (", and fastblake's fastest over the fastest reference" if ratio else "")
              + ":\n")
        header = ["input"] + [column(*c) for c in columns] + (["ratio"] if ratio else [])
        print("| " + " | ".join(header) + " |")
        print("|---" * len(header) + "|")
        for count, size in shapes:
            def value(c):
                return medians.get(Row(family, cls, c[0], c[1], count, size))
            cells = [fmt(value(c)) for c in columns]
            if ratio:
                best = max([value(c) for c in ours if value(c)] or [0])
                fastest = max([value(c) for c in refs if value(c)] or [0])
                cells.append(f"**{best / fastest:.2f}x**" if best and fastest else "-")
            print(f"| {shape_text(count, size)} | " + " | ".join(cells) + " |")


def machine_line(ctx):
    return (f"Machine: {ctx.get('cpu_model', '?')}, {ctx.get('num_cpus', '?')} CPUs "
            f"({ctx.get('cpu_flags', '?')}); {ctx.get('kernel', '?')}; "
            f"{ctx.get('compiler', '?')}; fastblake {ctx.get('fastblake_version', '?')} at "
            f"commit {ctx.get('commit', '?')} on the {ctx.get('detected_backend', '?')} backend; "
            f"official BLAKE3 C {ctx.get('official_c_version', '?')}; {ctx.get('date', '')}.")


def compare(old_path, new_path, tolerance):
    old = {line[:3] + (line.ref_label,): line for line in summary(load(old_path)[0])}
    new = {line[:3] + (line.ref_label,): line for line in summary(load(new_path)[0])}
    common = [k for k in new if k in old]
    print(f"Ratios of {old_path} (old) and {new_path} (new), same machine; moved: by more "
          f"than {tolerance:g}%.\n")
    print("| family | class | input | reference | old | new | change |")
    print("|---|---|---|---|---|---|---|")
    moved = 0
    for k in common:
        a, b = old[k].ratio, new[k].ratio
        change = (b / a - 1) * 100
        flag = abs(change) > tolerance
        moved += flag
        print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {a:.2f}x | {b:.2f}x | "
              f"{'**' if flag else ''}{change:+.1f}%{'**' if flag else ''} |")
    print(f"\n{len(common) - moved} of {len(common)} ratios within ±{tolerance:g}%.")
    return 1 if moved else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("artifacts", nargs="+")
    parser.add_argument("--summary-only", action="store_true")
    parser.add_argument("--link", help="where the artifact is published")
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--tolerance", type=float, default=5.0)
    args = parser.parse_args()
    if args.compare:
        if len(args.artifacts) != 2:
            parser.error("--compare takes OLD.json NEW.json")
        return compare(args.artifacts[0], args.artifacts[1], args.tolerance)
    for path in args.artifacts:
        medians, ctx = load(path)
        print(machine_line(ctx))
        if args.link:
            print(f"Artifact: [{args.link.rsplit('/', 1)[-1]}]({args.link}).")
        print()
        print_summary(medians)
        print_level_pairs(medians)
        if not args.summary_only:
            class_tables(medians)
    return 0


if __name__ == "__main__":
    sys.exit(main())
