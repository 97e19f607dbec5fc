#!/usr/bin/env python3
"""b3sum-mpi's scaling: measured on this machine, and modelled at scale (mpi/README.md).

1. One file in the page cache, hashed by the official b3sum (default threads, 1 and 2),
   fastblake's b3sum, and b3sum-mpi on 1 and 2 ranks (each bound to a core, as mpirun binds
   them, or unbound with a thread per CPU), in interleaved rounds; mpirun's own start-up is
   measured on an empty file at each rank count and taken off as "hashing".
2. Oversubscribed: 8, 16 and 32 ranks of one thread each on this machine's cores, with pieces
   of 256 MiB, 16 MiB and 1 MiB. More pieces cost more: the slope of the hashing time over the
   number of pieces is the cost of one piece (its request, reply, open, fstat, gather and merge)
   in wall time on this machine; times the cores, in CPU time.
3. The model: T(S, N) = launch + max(S / min(N R, B) + P / R + (S / P) c_w / N, (S / P) c_r),
   where c_w is a piece's cost to its worker and c_r to the root's coordinator (both bounded
   by the measured cost), P the piece size b3sum-mpi chooses and P / R the tail of the last
   pieces. It is checked against step 2's runs, then evaluated for N nodes at R GB/s each.

Usage: bench/mpi_scaling.py B3SUM_MPI FASTBLAKE_B3SUM [--size GIB] [--rounds N]
                            [--json OUT.json] [--markdown OUT.md]
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("b3sum_mpi")
parser.add_argument("fastblake_b3sum")
parser.add_argument("--size", type=float, default=4, help="GiB")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--json")
parser.add_argument("--markdown")
args = parser.parse_args()

OFFICIAL = shutil.which("b3sum", path="/usr/bin")
MPIEXEC = shutil.which("mpiexec")
if not OFFICIAL or not MPIEXEC:
    sys.exit("needs the official b3sum (Debian's b3sum) and mpiexec (openmpi-bin)")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
CORES = os.cpu_count()


def cpu_text():
    model, flags = platform.processor(), []
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and not model:
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags"):
                have = line.split(":", 1)[1].split()
                flags = [x for x in ("sse4_1", "avx2", "avx512f", "avx512vl") if x in have]
                break
    return f"{model}, {CORES} CPUs, {' '.join(flags)}"


def wall(command, env=None):
    start = time.monotonic()
    p = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env=dict(ENV, **(env or {})))
    elapsed = time.monotonic() - start
    if p.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {p.stderr.decode()[:500]}")
    return elapsed


def interleaved(commands, rounds):
    """{name: median wall seconds}, the commands run in turn, round after round."""
    times = {name: [] for name in commands}
    for _ in range(rounds):
        for name, (command, env) in commands.items():
            times[name].append(wall(command, env))
    return {name: statistics.median(t) for name, t in times.items()}


def mpi(ranks, *tool_args, bind=None):
    command = [MPIEXEC, "-q", "--oversubscribe", "-n", str(ranks)]
    if bind:
        command += ["--bind-to", bind]
    return command + [args.b3sum_mpi] + list(tool_args)


with tempfile.TemporaryDirectory() as d:
    size = int(args.size * (1 << 30))
    data = os.path.join(d, "data")
    with open(data, "wb") as f:
        block = os.urandom(1 << 24)
        for _ in range(size // len(block)):
            f.write(block)
        f.write(block[:size % len(block)])
    empty = os.path.join(d, "empty")
    open(empty, "wb").close()
    subprocess.run(["cat", data], stdout=subprocess.DEVNULL, check=True)  # into the page cache

    one = {
        "official b3sum": ([OFFICIAL, data], None),
        "official b3sum --num-threads 1": ([OFFICIAL, "--num-threads", "1", data], None),
        "official b3sum --num-threads 2": ([OFFICIAL, "--num-threads", "2", data], None),
        "fastblake b3sum": ([args.fastblake_b3sum, data], None),
        "b3sum-mpi, 1 rank, unbound": (mpi(1, data, bind="none"), None),
        "b3sum-mpi, 1 rank on 1 core": (mpi(1, data), None),
        "b3sum-mpi, 2 ranks on 1 core each": (mpi(2, data), None),
        "b3sum-mpi, 2 ranks, unbound": (mpi(2, data, bind="none"), None),
        "launch, 1 rank": (mpi(1, empty), None),
        "launch, 2 ranks": (mpi(2, empty), None),
    }
    local = interleaved(one, args.rounds)

    pieces_of = {256 << 20: None, 16 << 20: None, 1 << 20: None}
    over = {}
    for ranks in (8, 16, 32):
        commands = {"launch": (mpi(ranks, "--num-threads", "1", empty), None)}
        for piece in pieces_of:
            commands[piece] = (mpi(ranks, "--num-threads", "1", data),
                               {"FASTBLAKE_MPI_PIECE_SIZE": str(piece)})
        over[ranks] = interleaved(commands, max(3, args.rounds - 2))
        # The root's coordinator: its CPU time per piece, from the tool's own count.
        p = subprocess.run(mpi(ranks, "--num-threads", "1", data), capture_output=True,
                           env=dict(ENV, FASTBLAKE_MPI_STATS="1",
                                    FASTBLAKE_MPI_PIECE_SIZE=str(1 << 20)))
        line = p.stderr.decode().strip().splitlines()[-1].split()
        over[ranks]["coordinator_us_per_piece"] = float(line[-3]) / float(line[1]) * 1e6

# Step 1: hashing time, the launch taken off.
launch = {1: local["launch, 1 rank"], 2: local["launch, 2 ranks"]}
official = local["official b3sum"]
rows = []
for name, t in local.items():
    if name.startswith("launch"):
        continue
    ranks = 2 if "2 ranks" in name else 1
    hashing = t - launch[ranks] if name.startswith("b3sum-mpi") else t
    rows.append({"command": name, "wall_s": t, "hashing_s": hashing,
                 "gb_per_s": size / hashing / 1e9, "vs_official": hashing / official})

# Step 2: the cost of a piece, from the slope over the piece counts.
single_core_rate = size / (local["b3sum-mpi, 1 rank on 1 core"] - launch[1])
fits = []
for ranks, results in over.items():
    points = [(-(-size // piece), results[piece] - results["launch"]) for piece in pieces_of]
    mean_n = statistics.mean(n for n, _ in points)
    mean_t = statistics.mean(t for _, t in points)
    slope = (sum((n - mean_n) * (t - mean_t) for n, t in points) /
             sum((n - mean_n) ** 2 for n, _ in points))
    for n, t in points:
        predicted = size / (CORES * single_core_rate) + n * max(slope, 0)
        fits.append({"ranks": ranks, "pieces": n, "hashing_s": t, "predicted_s": predicted})
    fits.append({"ranks": ranks, "slope_us_per_piece": slope * 1e6,
                 "launch_s": results["launch"],
                 "coordinator_us_per_piece": results["coordinator_us_per_piece"]})
piece_cost = max(f["slope_us_per_piece"] for f in fits if "slope_us_per_piece" in f) * 1e-6
piece_cost_cpu = piece_cost * CORES
# The least oversubscribed run's: with 32 processes on these cores, the coordinator's wake-ups
# wait their turn too.
coordinator_cost = next(f["coordinator_us_per_piece"] for f in fits
                        if f["ranks"] == 8 and "coordinator_us_per_piece" in f) * 1e-6


# Step 3: the model at scale.
def chosen_piece(file_size, nodes):
    share = file_size // (16 * nodes)
    p = 1 << max(share.bit_length() - 1, 0)
    return min(max(p, 16 << 20), 256 << 20)


def model(file_size, nodes, rate, bandwidth=float("inf")):
    p = chosen_piece(file_size, nodes)
    pieces = -(-file_size // p)
    aggregate = min(nodes * rate, bandwidth)
    ideal = file_size / (nodes * rate)
    # Each piece costs its worker c_w (the whole measured cost, an upper bound); the root's
    # coordinator (a thread of its own) spends c_r on each, and limits the run only once that
    # is more than all the rest.
    workers = file_size / aggregate + p / rate + pieces * piece_cost_cpu / nodes
    root = pieces * coordinator_cost
    return ideal / max(workers, root), p


scale = []
for gib in (100, 1024, 10240):
    for nodes in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        efficiency, p = model(gib << 30, nodes, 5e9)
        scale.append({"gib": gib, "nodes": nodes, "piece_mib": p >> 20,
                      "efficiency": efficiency})

report = {"machine": cpu_text(), "file_bytes": size, "rounds": args.rounds,
          "local": rows, "launch_s": launch, "oversubscribed": fits,
          "piece_cost_s": piece_cost, "piece_cost_cpu_s": piece_cost_cpu,
          "coordinator_cost_s": coordinator_cost,
          "single_core_bytes_per_s": single_core_rate, "model_5gbs": scale}
if args.json:
    with open(args.json, "w") as f:
        json.dump(report, f, indent=1)

md = [f"Machine: {report['machine']}; a {size / (1 << 30):.0f} GiB file in the page cache; "
      f"medians of {args.rounds} interleaved rounds.", "",
      "| command | wall s | hashing s | GB/s | hashing / official b3sum |", "|---|---|---|---|---|"]
for r in rows:
    md.append(f"| {r['command']} | {r['wall_s']:.3f} | {r['hashing_s']:.3f} | "
              f"{r['gb_per_s']:.2f} | {r['vs_official']:.2f} |")
md += ["", f"mpirun's start-up (an empty file): {launch[1]:.3f} s on 1 rank, "
       f"{launch[2]:.3f} s on 2.", "",
       "| ranks (1 thread each) | pieces | hashing s | model s |", "|---|---|---|---|"]
for f in fits:
    if "pieces" in f:
        md.append(f"| {f['ranks']} | {f['pieces']} | {f['hashing_s']:.3f} | "
                  f"{f['predicted_s']:.3f} |")
md += ["", "| ranks | cost of a piece, wall us | coordinator CPU per piece, us | launch s |",
       "|---|---|---|---|"]
for f in fits:
    if "slope_us_per_piece" in f:
        md.append(f"| {f['ranks']} | {f['slope_us_per_piece']:.0f} | "
                  f"{f['coordinator_us_per_piece']:.1f} | {f['launch_s']:.3f} |")
md += ["", f"The model's c_w: {piece_cost_cpu * 1e6:.0f} us of CPU time a piece (the largest "
       f"slope, {piece_cost * 1e6:.0f} us of wall time on {CORES} cores); c_r: "
       f"{coordinator_cost * 1e6:.1f} us (8 ranks). Parallel efficiency at 5 GB/s a node, "
       "with the piece size chosen:", "",
       "| file | " + " | ".join(f"{n} nodes" for n in (1, 2, 4, 8, 16, 32, 64, 128, 256)) + " |",
       "|---|" + "---|" * 9]
for gib in (100, 1024, 10240):
    cells = [f"{s['efficiency'] * 100:.1f}% ({s['piece_mib']} MiB)" for s in scale
             if s["gib"] == gib]
    md.append(f"| {gib} GiB | " + " | ".join(cells) + " |")
text = "\n".join(md) + "\n"
if args.markdown:
    with open(args.markdown, "w") as f:
        f.write(text)
print(text)
