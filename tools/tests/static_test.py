"""The static tools (FASTBLAKE_STATIC_TOOLS): b3sum, b2sum and bao each one file that runs on any
Linux of its architecture whatever its C library (an ELF executable with no interpreter and no
dynamic section), the SIMD backend b3sum chose there, and each tool's whole suite run on it:
natively where the architecture is this machine's, else under the emulator named after the
arguments (qemu-user, which a static program needs no root of libraries for).

Usage: static_test.py TOOLS_DIR BAO_VECTORS_JSON [EMULATOR WORD...]
"""
import os
import shlex
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..")
# (tool, its suite, whether the suite takes Bao's vectors)
SUITES = [
    ("b3sum", os.path.join(TOOLS, "b3sum", "tests", "b3sum_test.py"), False),
    ("b2sum", os.path.join(TOOLS, "b2sum", "tests", "b2sum_test.py"), False),
    ("bao", os.path.join(TOOLS, "bao", "tests", "bao_test.py"), True),
    ("bao", os.path.join(TOOLS, "bao", "tests", "bao_hostile_test.py"), False),
]
PT_INTERP, PT_DYNAMIC = 3, 2
MACHINES = {3: "i386", 62: "x86-64", 183: "AArch64", 243: "RISC-V", 21: "PowerPC 64", 22: "IBM Z"}


def elf_kind(path):
    """(machine, byte order, the program header types) of an ELF file, or why it is none."""
    with open(path, "rb") as f:
        data = f.read(1 << 16)
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return "not a 64-bit ELF file"
    order = "<" if data[5] == 1 else ">"
    machine = struct.unpack_from(order + "H", data, 18)[0]
    phoff = struct.unpack_from(order + "Q", data, 32)[0]
    phentsize, phnum = struct.unpack_from(order + "HH", data, 54)
    types = [struct.unpack_from(order + "I", data, phoff + i * phentsize)[0] for i in range(phnum)]
    return MACHINES.get(machine, f"machine {machine}"), "little" if order == "<" else "big", types


def main():
    tools_dir, vectors = sys.argv[1], sys.argv[2]
    emulator = sys.argv[3:]
    failures = []
    for tool in ("b3sum", "b2sum", "bao"):
        kind = elf_kind(os.path.join(tools_dir, tool))
        if isinstance(kind, str):
            failures.append(f"{tool}: {kind}")
            continue
        machine, order, types = kind
        linked = [name for t, name in ((PT_INTERP, "an interpreter"), (PT_DYNAMIC, "a dynamic section"))
                  if t in types]
        size = os.path.getsize(os.path.join(tools_dir, tool))
        print(f"{tool}: {machine}, {order}-endian, {size:,} bytes, "
              f"{'linked dynamically: ' + ' and '.join(linked) if linked else 'static'}")
        if linked:
            failures.append(f"{tool} has {' and '.join(linked)}")
    version = subprocess.run(emulator + [os.path.join(tools_dir, "b3sum"), "--version"],
                             capture_output=True, timeout=60)
    print(f"b3sum --version{' under ' + shlex.join(emulator) if emulator else ''}: "
          f"{version.stdout.decode(errors='replace').strip()}")
    if version.returncode != 0 or b"fastblake" not in version.stdout:
        failures.append(f"b3sum --version: status {version.returncode}, {version.stderr!r}")
    environment = dict(os.environ, FASTBLAKE_TOOL_EMULATOR=shlex.join(emulator),
                       FASTBLAKE_TEST_LOCALE="C")
    for tool, script, takes_vectors in SUITES:
        name = os.path.basename(script)
        if emulator and name == "bao_hostile_test.py":
            print(f"=== {name}: skipped under the emulator (it holds a child's peak resident set "
                  "to a bound, and under qemu-user that is the emulator's) ===")
            continue
        print(f"=== {name} ===", flush=True)
        arguments = [os.path.join(tools_dir, tool)] + ([vectors] if takes_vectors else [])
        if subprocess.run([sys.executable, script] + arguments, env=environment).returncode:
            failures.append(f"{name} failed")
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
