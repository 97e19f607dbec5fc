#!/usr/bin/env python3
"""Sums docs/fuzzing-runs.tsv by target and writes the table between the "fuzzing hours"
markers of docs/reliability.md. Usage: fuzz_hours.py RECORD.tsv RELIABILITY.md"""
import csv
import sys

record, page = sys.argv[1], sys.argv[2]
totals = {}
with open(record, newline="") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        t = totals.setdefault(row["target"], {"cpu": 0, "runs": 0, "execs": 0, "failed": 0,
                                               "last": ""})
        t["cpu"] += int(row["cpu_seconds"])
        t["runs"] += 1
        t["execs"] += int(row["executions"])
        t["failed"] += row["outcome"] != "clean"
        t["last"] = max(t["last"], row["date"])
lines = ["| target | CPU-hours | executions | runs | failed runs | last run |",
         "|---|---|---|---|---|---|"]
# scripts/fuzz's targets in its order (a target never run shows as such), then any other the
# record holds.
order = ["blake3", "blake2", "b3sum_check_line", "b2sum_check_line", "hex", "bao",
         "python_bindings"]
order += [t for t in totals if t not in order]
for target in order:
    t = totals.get(target)
    if t is None:
        lines.append(f"| `{target}` | 0 | 0 | 0 | 0 | never |")
        continue
    lines.append(f"| `{target}` | {t['cpu'] / 3600:.2f} | {t['execs']:,} | {t['runs']} | "
                 f"{t['failed']} | {t['last']} |")
with open(page) as f:
    text = f.read()
begin, end = "<!-- fuzzing hours: begin -->", "<!-- fuzzing hours: end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
with open(page, "w") as f:
    f.write(head + begin + "\n" + "\n".join(lines) + "\n" + end + tail)
