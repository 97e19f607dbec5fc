#!/usr/bin/env python3
"""BLAKE3's x86 kernels against the official assembly, per core, as llvm-mca models them.

For each level (sse2, sse41, avx2, avx512) it takes the loop body that hashes one 64-byte block
of every lane (the largest straight-line stretch of each kernel function: seven rounds,
message loads and transposes), ours from the release build's kernel objects and the official's
from its .S files assembled here, and has llvm-mca run it back to back on each CPU model. A
row gives cycles per block per lane, that is per 64 bytes hashed; the ratio is the official's
cycles over ours (above 1: ours is faster on that core). The model knows ports, latencies and
the front end, not caches or memory: it ranks schedules, it does not predict GB/s.

Usage: mca.py OBJECT_DIR OFFICIAL_C_DIR [CPU...]
  OBJECT_DIR: the folder of the kernel objects (build/release/src/CMakeFiles/fastblake_objects.dir/
  kernels/blake3); OFFICIAL_C_DIR: the official C sources (librust-blake3-dev's .../c).
"""
import pathlib
import re
import subprocess
import sys
import tempfile

CPUS = sys.argv[3:] or ["sapphirerapids", "icelake-server", "skylake-avx512", "znver3",
                        "znver4", "znver5"]
LEVELS = ["sse2", "sse41", "avx2", "avx512"]
ITERATIONS = 100
# Lanes of each layout of ours (docs/blake3-kernels.md, "Kernel functions").
LANES = {"vec512": 16, "vec256": 8, "vec128": 4, "stack_pair<stack256>": 4, "stack512": 4,
         "stack256": 2}
# The widest register a block names tells the official's lanes (16 in zmm, 8 in ymm, 4 in xmm).
OFFICIAL_LANES = {"zmm": 16, "ymm": 8, "xmm": 4}
AVX512_ONLY = ("znver3",)  # models without AVX-512: the avx512 rows are left out there


def functions(obj):
    """{demangled name: [(address, instruction)]} of an object's text."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "att", "-C", "-r",
                           str(obj)], capture_output=True, text=True, check=True).stdout
    found = {}
    for part in re.split(r"\n(?=[0-9a-f]+ <)", text):
        head = re.match(r"[0-9a-f]+ <(.*)>:", part)
        if not head:
            continue
        instructions = []
        for line in part.splitlines()[1:]:
            row = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
            if row and not row.group(2).startswith("R_X86"):
                instructions.append((int(row.group(1), 16), row.group(2).split("#")[0].strip()))
        found[head.group(1)] = instructions
    return found


def straight_blocks(instructions):
    """The function's basic blocks without their closing branch, largest first."""
    targets = {int(t.group(1), 16) for _, i in instructions
               if (t := re.match(r"j\w+\s+([0-9a-f]+)", i))}
    blocks, current = [], []
    for address, instruction in instructions:
        if address in targets and current:
            blocks.append(current)
            current = []
        if re.match(r"(j\w+|ret|call|jmp)\b", instruction):
            blocks.append(current)
            current = []
        else:
            current.append(instruction)
    blocks.append(current)
    return sorted((b for b in blocks if b), key=len, reverse=True)


def cycles(block, cpu):
    """llvm-mca's cycles for one pass of the block, run back to back."""
    result = subprocess.run(["llvm-mca-19", f"-mcpu={cpu}", f"-iterations={ITERATIONS}", "-"],
                            input="\n".join(block) + "\n", capture_output=True, text=True)
    total = re.search(r"Total Cycles:\s+(\d+)", result.stdout)
    if not total:
        sys.exit(f"llvm-mca-19 -mcpu={cpu}: {result.stderr.strip()[:400]}")
    return int(total.group(1)) / ITERATIONS


def ours(object_dir, level):
    """{layout: block} of our chunk step at this level: the largest block of each layout's
    per-group function of hash_chunks_with (one per layout; the widest if several)."""
    step = {}
    for name, instructions in functions(object_dir / f"{level}.cpp.o").items():
        found = re.search(r"hash_chunks_with<.*::operator\(\)<(.*)>\(unsigned char const\* const\*",
                          name)
        if not found:
            continue
        layout = re.sub(r"fastblake::internal::blake3::\(anonymous namespace\)::", "",
                        found.group(1)).replace(" ", "")
        block = straight_blocks(instructions)[0]
        if layout in LANES and len(block) > len(step.get(layout, [])):
            step[layout] = block
    return step


def official(official_dir, level, work):
    """{lanes: block} of the official hash_many at this level: its large blocks by width."""
    source = official_dir / f"blake3_{level}_x86-64_unix.S"
    obj = work / f"official_{level}.o"
    subprocess.run(["cc", "-c", str(source), "-o", str(obj)], check=True)
    instructions = functions(obj).get(f"blake3_hash_many_{level}") or \
        functions(obj)[f"_blake3_hash_many_{level}"]
    step = {}
    for block in straight_blocks(instructions):
        if len(block) < 200:  # loop bodies of rounds only, not set-up or tails
            break
        widest = max((w for w in OFFICIAL_LANES if any(f"%{w}" in i for i in block)),
                     key=OFFICIAL_LANES.get)
        step.setdefault(OFFICIAL_LANES[widest], block)
    return step


def main():
    object_dir, official_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    print("cycles per 64-byte block per lane (llvm-mca-19, one pass back to back); "
          "ratio = official / ours, above 1 ours is faster")
    print()
    print("| level | layout (lanes) | instructions ours / official | "
          + " | ".join(CPUS) + " |")
    print("|---|---|---|" + "---|" * len(CPUS))
    with tempfile.TemporaryDirectory() as work:
        for level in LEVELS:
            theirs = official(official_dir, level, pathlib.Path(work))
            for layout, block in sorted(ours(object_dir, level).items(),
                                        key=lambda item: -LANES[item[0]]):
                lanes = LANES[layout]
                reference = theirs.get(lanes)
                cells = []
                for cpu in CPUS:
                    if level == "avx512" and cpu in AVX512_ONLY:
                        cells.append("")
                        continue
                    mine = cycles(block, cpu) / lanes
                    if reference is None:
                        cells.append(f"{mine:.2f}")
                    else:
                        other = cycles(reference, cpu) / lanes
                        cells.append(f"{mine:.2f} / {other:.2f} = {other / mine:.2f}")
                count = f"{len(block)} / {len(reference)}" if reference else f"{len(block)} / -"
                print(f"| {level} | {layout} ({lanes}) | {count} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
