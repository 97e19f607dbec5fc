#!/usr/bin/env python3
"""The network term of b3sum-mpi's model (mpi/README.md), measured across hosts made by
scripts/mpi-hosts (root): network namespaces on a bridge, shaped by tc's token bucket (tbf).

b3sum-mpi's workers each hash a piece, then send its chaining values with the request for the
next and wait for the reply: per piece, a worker spends P / R hashing, c on its own (open,
fstat, mapping, the merge) and t waiting on the network's round trip. So, for N workers on N
cores and S bytes in pieces of P,

    T = L + (S / P) / N x (P / R + c + t)

For each shaping (none, 10 Gbit/s, 1 Gbit/s):
1. the link between two hosts: MPI round trips of 64 bytes between ranks on host 1 and host 2
   (t), and a TCP stream of 256 MiB (throughput);
2. b3sum-mpi on 2 hosts x 1 rank (one per core): an empty file (the launch, L), then a file of
   S bytes in pieces of each size P (large, where hashing dominates; small, where the pieces'
   round trips weigh), in interleaved rounds, medians;
3. the prediction: c is measured once, on one host (2 ranks, shared memory, whose own round
   trip is measured too), R is one core's rate (b3sum --num-threads 1): the network's only
   term is t. The data comes from the shared file system, not over the hosts' links (as from a
   cluster file system whose own network is not shaped here).

Usage: bench/mpi_network.py MPI_HOSTS B3SUM_MPI [--size MIB] [--pieces KIB,...] [--rounds N]
                            [--json OUT.json]
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
parser.add_argument("mpi_hosts")
parser.add_argument("b3sum_mpi")
parser.add_argument("--size", type=int, default=512, help="MiB")
parser.add_argument("--pieces", default="256,16", help="piece sizes, KiB, comma-separated")
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--json")
args = parser.parse_args()

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
ENV.pop("OMPI_MCA_orte_tmpdir_base", None)
OFFICIAL = shutil.which("b3sum", path="/usr/bin")
HOSTS = 2

PINGPONG = r"""
#include <mpi.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char buf[64] = {};
  std::vector<double> rtt;
  for (int i = 0; i < 20000; ++i) {
    const auto t = std::chrono::steady_clock::now();
    if (rank == 0) {
      MPI_Send(buf, 64, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 64, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 64, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
    rtt.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
  }
  std::sort(rtt.begin(), rtt.end());
  if (rank == 0) std::printf("%.9f\n", rtt[rtt.size() / 2]);
  MPI_Finalize();
}
"""

SERVER = r"""
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 7000)); s.listen(1); print("ready", flush=True)
c, _ = s.accept(); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
while True:
    b = c.recv(1 << 20)
    if not b: break
    if len(b) == 64 and b[:4] == b"ping": c.sendall(b)
"""

CLIENT = r"""
import socket, statistics, sys, time
c = socket.create_connection((sys.argv[1], 7000)); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
msg = b"ping" + bytes(60); rtts = []
for i in range(2000):
    t = time.perf_counter(); c.sendall(msg); got = b""
    while len(got) < 64: got += c.recv(64 - len(got))
    rtts.append(time.perf_counter() - t)
block = bytes(1 << 20); t = time.perf_counter()
for i in range(256): c.sendall(block)
c.shutdown(socket.SHUT_WR); c.recv(1)
print(statistics.median(rtts), (256 << 20) / (time.perf_counter() - t))
"""


def hosts(*a, **kw):
    return subprocess.run([args.mpi_hosts] + [str(x) for x in a], env=ENV, check=True, **kw)


def mpi_round_trip(state, address, pingpong, same_host):
    hosts_used = f"{address[0]}:2" if same_host else f"{address[0]}:1,{address[1]}:1"
    out = subprocess.run([args.mpi_hosts, "mpirun", state, "-q", "-n", "2", "--host", hosts_used,
                          "--bind-to", "none", pingpong], env=ENV, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[0])


def link(state, address):
    server = subprocess.Popen([args.mpi_hosts, "exec", state, "2", sys.executable, "-c", SERVER,
                               address[1]], stdout=subprocess.PIPE, env=ENV, text=True)
    server.stdout.readline()
    out = hosts("exec", state, 1, sys.executable, "-c", CLIENT, address[1],
                capture_output=True, text=True).stdout.split()
    server.wait(timeout=60)
    return float(out[0]), float(out[1])


def job(state, address, path, piece=None, same_host=False):
    hosts_used = f"{address[0]}:{HOSTS}" if same_host else ",".join(
        f"{a}:1" for a in address[:HOSTS])
    command = [args.mpi_hosts, "mpirun", state, "-q", "-n", str(HOSTS), "--host", hosts_used,
               "--bind-to", "none"]
    if piece:
        command += ["-x", f"FASTBLAKE_MPI_PIECE_SIZE={piece}"]
    started = time.perf_counter()
    subprocess.run(command + [args.b3sum_mpi, "--num-threads", "1", path], env=ENV, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


state = tempfile.mkdtemp(prefix="fastblake-mpi-network-", dir="/var/tmp")
hosts("up", state, "--hosts", HOSTS, "--slots", 2, stdout=subprocess.DEVNULL)
try:
    address = open(os.path.join(state, "hostfile")).read().split()[::2]
    size = args.size << 20
    piece_sizes = [int(k) << 10 for k in args.pieces.split(",")]
    data = os.path.join(state, "shared", "data")
    with open(data, "wb") as f:
        for _ in range(args.size):
            f.write(os.urandom(1 << 20))
    empty = os.path.join(state, "shared", "empty")
    open(empty, "wb").close()
    # One core's rate, in the page cache.
    subprocess.run([OFFICIAL, data], stdout=subprocess.DEVNULL)
    one_core = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        subprocess.run([OFFICIAL, "--num-threads", "1", "--no-mmap", data],
                       stdout=subprocess.DEVNULL)
        one_core.append(time.perf_counter() - started)
    rate = size / statistics.median(one_core)
    pingpong = os.path.join(state, "shared", "pingpong")
    with open(pingpong + ".cpp", "w") as f:
        f.write(PINGPONG)
    subprocess.run(["mpicxx", "-O2", "-o", pingpong, pingpong + ".cpp"], check=True)
    # c, each piece size's, from both ranks on host 1 (shared memory, its own round trip).
    local_trip = mpi_round_trip(state, address, pingpong, True)
    local_launch = statistics.median(job(state, address, empty, same_host=True)
                                     for _ in range(args.rounds))
    piece_cost = {}
    for p in piece_sizes:
        local = statistics.median(job(state, address, data, p, same_host=True)
                                  for _ in range(args.rounds))
        per_piece = (local - local_launch) / (size // p / HOSTS)
        piece_cost[p] = per_piece - p / rate - local_trip
    rows = []
    for shaping in ("off", "10gbit", "1gbit"):
        hosts("shape", state, shaping)
        _, throughput = link(state, address)
        rtt = mpi_round_trip(state, address, pingpong, False)
        launches, runs = [], {p: [] for p in piece_sizes}
        for _ in range(args.rounds):
            launches.append(job(state, address, empty))
            for p in piece_sizes:
                runs[p].append(job(state, address, data, p))
        launch = statistics.median(launches)
        for p in piece_sizes:
            measured = statistics.median(runs[p])
            network = size // p / HOSTS * rtt
            predicted = launch + size // p / HOSTS * (p / rate + piece_cost[p]) + network
            rows.append({"shaping": shaping, "piece": p, "rtt_us": rtt * 1e6,
                         "piece_cost_us": piece_cost[p] * 1e6,
                         "throughput_MBps": throughput / 1e6, "launch_s": launch,
                         "measured_s": measured, "network_s": network,
                         "predicted_s": predicted, "error": predicted / measured - 1,
                         "runs_s": runs[p], "launches_s": launches})
finally:
    hosts("down", state)
    shutil.rmtree(state, ignore_errors=True)

cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
            if line.startswith("model name")), platform.processor())
print(f"Machine: {cpu}, {os.cpu_count()} CPUs; {HOSTS} hosts x 1 rank (1 thread); "
      f"{args.size} MiB; one core {rate / 1e9:.2f} GB/s; on one host: MPI round trip "
      f"{local_trip * 1e6:.1f} us, c = " +
      ", ".join(f"{piece_cost[p] * 1e6:.1f} us ({p >> 10} KiB)" for p in piece_sizes) +
      f"; medians of {args.rounds} rounds.\n")
print("| shaping | MPI round trip us | TCP stream MB/s | pieces | launch s | job s | model s "
      "(network) | model / job |")
print("|---|--:|--:|--:|--:|--:|--:|--:|")
for r in rows:
    print(f"| {r['shaping']} | {r['rtt_us']:.1f} | {r['throughput_MBps']:.0f} | "
          f"{size // r['piece']} x {r['piece'] >> 10} KiB | {r['launch_s']:.3f} | "
          f"{r['measured_s']:.3f} | {r['predicted_s']:.3f} ({r['network_s']:.3f}) | "
          f"{1 + r['error']:.2f} |")
if args.json:
    with open(args.json, "w") as f:
        json.dump({"machine": cpu, "cpus": os.cpu_count(), "hosts": HOSTS, "size": size,
                   "one_core_rate": rate, "local_round_trip": local_trip,
                   "piece_cost": {str(p): c for p, c in piece_cost.items()}, "rows": rows},
                  f, indent=1)
