#!/usr/bin/env python3
"""fastblake's Python module against the references in the same process, interleaved: the
blake3 package (blake3-py) at 64 B, 1 KiB, 64 KiB, 1 MiB and 64 MiB on one thread and with
max_threads=AUTO; hashlib's blake2b and blake2s at the same sizes; the per-call cost at 64 B;
the C++ library's own speed at 1 MiB, in the same process (the shared library's C interface
through ctypes, when given) and from fastblake-bench (when given, run after); two Python
threads hashing separately. --baseline adds another build of the module (another commit's
fastblake/_fastblake*.so) to every comparison, as "before".

Prints Markdown tables of medians (GB/s or ns a call) and ratios, and the machine.
Usage: python/bench/bench.py [--rounds 15] [--cxx-bench build/release/bench/fastblake-bench]
                             [--c-library build/shared/libfastblake.so]
                             [--baseline OTHER/fastblake/_fastblake.cpython-311-x86_64-linux-gnu.so]
"""
import argparse
import ctypes
import hashlib
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import threading
import time

import blake3 as reference
import fastblake

SIZES = [64, 1024, 64 << 10, 1 << 20, 64 << 20]


def per_call(fn, budget=0.05):
    """Seconds a call of fn, from as many calls as fit in the budget."""
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return elapsed / n
        n *= 2


def interleaved(fns, rounds):
    """{name: median seconds a call}, the functions timed in turn, round after round."""
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            times[name].append(per_call(fn))
    return {name: statistics.median(t) for name, t in times.items()}


def machine():
    model = "?"
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and model == "?":
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    simd = [f for f in ("sse4_1", "avx2", "avx512f", "avx512vl") if f in flags]
    return (f"{model}, {os.cpu_count()} CPUs ({' '.join(simd)}); Python {platform.python_version()}"
            f"; fastblake {fastblake.__version__} on {fastblake.backend()}; blake3 package "
            f"{reference.__version__}")


def load_baseline(path):
    """Another build of the compiled module, loaded beside this one under its own name."""
    spec = importlib.util.spec_from_file_location("_fastblake", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cxx_rate(bench, size, threads):
    """GB/s of the C++ library for one input of `size` bytes (fastblake-bench's median)."""
    name = f"blake3/serial/{fastblake.backend()}/{size}" if threads == 1 else \
        f"blake3/auto/{fastblake.backend()}/{size}"
    out = subprocess.run([bench, f"--benchmark_filter=^{name}(/|$)", "--benchmark_repetitions=5",
                          "--benchmark_format=json"], capture_output=True, text=True)
    try:
        rows = json.loads(out.stdout)["benchmarks"]
    except (ValueError, KeyError):
        return None  # no such row in this build of fastblake-bench
    medians = [r for r in rows if r.get("aggregate_name") == "median"]
    return medians[0]["bytes_per_second"] / 1e9 if medians else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--cxx-bench")
    parser.add_argument("--c-library")
    parser.add_argument("--baseline")
    args = parser.parse_args()
    before = load_baseline(args.baseline) if args.baseline else None
    print(f"Machine: {machine()}\n")
    def table(reference_name, rows):
        """rows: (size, label, {"ours": fn, "theirs": fn, "before": fn or absent})."""
        print(f"\n| input | | fastblake GB/s | {reference_name} GB/s | ratio |"
              + (" before GB/s | now / before |" if before else ""))
        print("|---|---|---|---|---|" + ("---|---|" if before else ""))
        for size, label, fns in rows:
            if not before:
                fns.pop("before")
            t = interleaved(fns, args.rounds if size < (64 << 20) else max(5, args.rounds // 3))
            print(f"| {size} B | {label} | {size / t['ours'] / 1e9:.3f} | "
                  f"{size / t['theirs'] / 1e9:.3f} | **{t['theirs'] / t['ours']:.2f}x** |"
                  + (f" {size / t['before'] / 1e9:.3f} | {t['before'] / t['ours']:.2f}x |"
                     if before else ""))

    def blake3_rows():
        for size in SIZES:
            data = os.urandom(size)
            for threads in (1, fastblake.AUTO):
                yield size, "1 thread" if threads == 1 else "AUTO", {
                    "ours": lambda: fastblake.blake3(data, max_threads=threads).digest(),
                    "theirs": lambda: reference.blake3(data, max_threads=threads).digest(),
                    "before": lambda: before.blake3(data, max_threads=threads).digest()}

    def blake2_rows():
        for size in SIZES:
            data = os.urandom(size)
            for name in ("blake2b", "blake2s"):
                ours, theirs = getattr(fastblake, name), getattr(hashlib, name)
                yield size, name, {"ours": lambda: ours(data).digest(),
                                   "theirs": lambda: theirs(data).digest(),
                                   "before": lambda: getattr(before, name)(data).digest()}

    table("blake3 package", blake3_rows())
    table("hashlib", blake2_rows())
    small = os.urandom(64)
    calls = {
        "fastblake.blake2b": lambda: fastblake.blake2b(small).digest(),
        "hashlib.blake2b": lambda: hashlib.blake2b(small).digest(),
        "fastblake.blake2s": lambda: fastblake.blake2s(small).digest(),
        "hashlib.blake2s": lambda: hashlib.blake2s(small).digest(),
        "fastblake.blake3": lambda: fastblake.blake3(small).digest(),
        "blake3.blake3": lambda: reference.blake3(small).digest(),
        "fastblake.blake3().update": lambda: fastblake.blake3().update(small).digest(),
        "blake3.blake3().update": lambda: reference.blake3().update(small).digest(),
    }
    if before:
        calls["before: blake2b"] = lambda: before.blake2b(small).digest()
        calls["before: blake3"] = lambda: before.blake3(small).digest()
        calls["before: blake3().update"] = lambda: before.blake3().update(small).digest()
    t = interleaved(calls, args.rounds)
    print("\nOne call at 64 B (construct, update, digest), ns (median):\n")
    print("| call | ns |")
    print("|---|---|")
    for name, seconds in t.items():
        print(f"| `{name}(b).digest()` | {seconds * 1e9:.0f} |")
    if args.c_library:
        # The library itself, one thread, in this process and interleaved with the module: what
        # a call costs the module beyond the hashing.
        lib = ctypes.CDLL(args.c_library)
        state = (ctypes.c_uint64 * 256)()
        out = ctypes.create_string_buffer(32)
        lib.fastblake_blake3_hasher_update.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                                       ctypes.c_size_t]
        lib.fastblake_blake3_hasher_finalize.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                                         ctypes.c_size_t]
        print("\nAgainst the C library in the same process (one thread, interleaved):\n")
        print("| input | module GB/s | C library GB/s | ratio |")
        print("|---|---|---|---|")
        for size in (64 << 10, 1 << 20, 64 << 20):
            data = os.urandom(size)

            def c_serial():
                lib.fastblake_blake3_hasher_init(ctypes.byref(state))
                lib.fastblake_blake3_hasher_update(ctypes.byref(state), data, size)
                lib.fastblake_blake3_hasher_finalize(ctypes.byref(state), out, 32)
            t = interleaved({"module": lambda: fastblake.blake3(data).digest(), "c": c_serial},
                            args.rounds)
            print(f"| {size} B | {size / t['module'] / 1e9:.3f} | {size / t['c'] / 1e9:.3f} | "
                  f"**{t['c'] / t['module']:.2f}x** |")
    if args.cxx_bench:
        print("\nAgainst the C++ library (fastblake-bench, same machine, run after):\n")
        print("| input | threads | Python GB/s | C++ GB/s | ratio |")
        print("|---|---|---|---|---|")
        for size, threads in [(1 << 20, 1), (1 << 20, fastblake.AUTO)]:
            data = os.urandom(size)
            py = size / interleaved({"x": lambda: fastblake.blake3(
                data, max_threads=threads).digest()}, 5)["x"] / 1e9
            cxx = cxx_rate(args.cxx_bench, size, threads)
            if cxx:
                print(f"| {size} B | {'1' if threads == 1 else 'AUTO'} | {py:.3f} | {cxx:.3f} | "
                      f"**{py / cxx:.2f}x** |")
    data = os.urandom(1 << 20)
    calls = 200

    def work(n):
        for _ in range(n):
            fastblake.blake3(data).digest()
    one = per_call(lambda: work(calls), 0.2)
    def two_threads():
        ts = [threading.Thread(target=work, args=(calls // 2,)) for _ in range(2)]
        for x in ts:
            x.start()
        for x in ts:
            x.join()
    two = per_call(two_threads, 0.2)
    print(f"\nTwo Python threads hashing separate 1 MiB inputs: {one / two:.2f}x the rate of one "
          f"thread ({os.cpu_count()} CPUs).")


if __name__ == "__main__":
    main()
