#!/usr/bin/env python3
"""Every test of this build carries labels, and CI runs it somewhere: some test preset of a
workflow preset that scripts/test runs (all but quick) selects one of its labels. Every test preset selects
by label. A test outside every preset would be built and never run.

Usage: check_labels.py CTEST BUILD_DIR PRESETS_JSON
"""
import json
import re
import subprocess
import sys

ctest, build_dir, presets_path = sys.argv[1:4]
listing = subprocess.run([ctest, "--show-only=json-v1", "--test-dir", build_dir],
                         capture_output=True, check=True, text=True).stdout
tests = json.loads(listing)["tests"]
with open(presets_path, encoding="utf-8") as f:
    presets = json.load(f)
test_presets = {p["name"]: p for p in presets.get("testPresets", [])}
problems = []


def resolved_filter(preset):
    """The preset's filter, with what it inherits (its own settings first)."""
    merged = {}
    parents = preset.get("inherits", [])
    for parent in [parents] if isinstance(parents, str) else parents:
        for key, value in resolved_filter(test_presets[parent]).items():
            merged.setdefault(key, value)
    for key in ("include", "exclude"):
        label = preset.get("filter", {}).get(key, {}).get("label")
        if label is not None:
            merged[key] = label
    return merged


for name, preset in test_presets.items():
    if not preset.get("hidden") and "include" not in resolved_filter(preset):
        problems.append(f"test preset {name} selects no labels (filter.include.label)")

ci_filters = {}
for workflow in presets.get("workflowPresets", []):
    if workflow["name"] == "quick":
        continue
    for step in workflow["steps"]:
        if step["type"] == "test":
            ci_filters[step["name"]] = resolved_filter(test_presets[step["name"]])


def runs(selection, labels):
    include, exclude = selection.get("include"), selection.get("exclude")
    return (include is None or any(re.search(include, label) for label in labels)) and not (
        exclude is not None and any(re.search(exclude, label) for label in labels))


for test in tests:
    name = test["name"]
    # A GoogleTest program this preset does not build (its build preset names targets).
    if name.endswith("_NOT_BUILT"):
        continue
    labels = next((p["value"] for p in test.get("properties", []) if p["name"] == "LABELS"), [])
    if not labels:
        problems.append(f"{name}: no labels")
    elif not any(runs(selection, labels) for selection in ci_filters.values()):
        problems.append(f"{name}: no CI test preset selects its labels {labels}")

if problems:
    print(f"{len(problems)} problems:")
    print("\n".join(problems[:200]))
    sys.exit(1)
print(f"{len(tests)} tests, each labelled and selected by a CI test preset "
      f"({', '.join(sorted(ci_filters))})")
