# Shared by the scripts in scripts/: Debian packages and the project root.
# shellcheck shell=bash

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# require_packages PACKAGE...: installs the missing Debian packages when run as root;
# otherwise names them and exits 1.
require_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) != 0 ]]; then
    echo "Missing Debian packages. Install them first:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
}

# The packages every build needs; the official BLAKE3 C sources are the tests' oracle and the
# comparison's baseline.
build_packages=(cmake g++ ninja-build librust-blake3-dev)

# fastblake::mpi and b3sum-mpi (the release, asan-ubsan and clang presets, and the packages).
mpi_packages=(libopenmpi-dev openmpi-bin)

# What fastblake-bench needs beyond a build: Google Benchmark, the references (libb2, libsodium,
# OpenSSL; Debian's b3sum for the cli rows; the Rust crates, built offline from Debian's sources
# with Debian's cargo: the official blake3 with rayon, blake2b_simd and blake2s_simd) and Python
# for the reports.
bench_packages=(libbenchmark-dev pkg-config libb2-dev libsodium-dev libssl-dev b3sum python3
  cargo librust-rayon-dev librust-blake2b-simd-dev librust-blake2s-simd-dev)

# zig's clang, from PyPI (Debian has no zig), the version the zig toolchain files
# (cmake/toolchains/zig.cmake) were tried with.
zig_version=0.17.1

# use_zig: makes zig reachable to those toolchain files, whose scripts run it by the
# interpreter FASTBLAKE_ZIG_PYTHON names: python3's ziglang where it has one, else one in an
# environment of its own (build/zig-env). By its full path: a build run by pip finds another
# python3 first. Fails where PyPI cannot be reached.
use_zig() {
  [[ -z ${FASTBLAKE_ZIG_PYTHON:-} ]] || return 0
  if python3 -m ziglang version >/dev/null 2>&1; then
    FASTBLAKE_ZIG_PYTHON=$(python3 -c 'import sys; print(sys.executable)')
    export FASTBLAKE_ZIG_PYTHON
    return 0
  fi
  local zig_env=$root/build/zig-env
  if ! "$zig_env/bin/python" -m ziglang version >/dev/null 2>&1; then
    python3 -m venv "$zig_env" &&
      "$zig_env/bin/python" -m pip --quiet --disable-pip-version-check install "ziglang==$zig_version" ||
      return 1
  fi
  export FASTBLAKE_ZIG_PYTHON=$zig_env/bin/python
}
