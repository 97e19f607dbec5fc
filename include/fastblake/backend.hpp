// Which instruction-set backend fastblake runs on, and whether an accelerator helps it.
//
// fastblake picks the best backend this CPU supports the first time it hashes, and keeps it.
// The environment variable FASTBLAKE_BACKEND, read at that moment and set to one of the names
// (avx512, avx2, sse41, sse2, neon, vsx, zvector, rvv, simd128, portable), forces one (for tests
// and benchmarks). All functions here are thread-safe.
//
// A program that links fastblake::cuda (<fastblake/cuda.hpp>) also lets the automatic
// functions, hash(), keyed_hash(), derive_key() and the file API with
// file_strategy::automatic, hand large subtrees of their input to the GPU, when that is
// measured to be faster than this CPU's threads. FASTBLAKE_BACKEND set to the registered
// accelerator's name (cuda's is "cuda"; any plug-in's, <fastblake/accelerator.hpp>) sends every
// subtree of more than one chunk there; FASTBLAKE_BACKEND=cpu, a CPU backend's name or another
// accelerator's never does. A name that is no CPU backend's is an accelerator's: refused in
// backend_override_error() while no plug-in of that name is registered.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/config.hpp>

namespace fastblake {

/// The backend in use, by name.
FASTBLAKE_API std::string_view active_backend() noexcept;

/// The kernels BLAKE2 runs on under the active backend: that backend's own where it has BLAKE2
/// kernels, else portable (under sse2, say).
FASTBLAKE_API std::string_view active_blake2_kernels() noexcept;

/// The backends compiled into this build that this CPU can run, best first. portable is
/// always last.
FASTBLAKE_API std::vector<std::string_view> available_backends();

/// Why FASTBLAKE_BACKEND was not honoured (an unknown name, or one this build or CPU lacks),
/// in one sentence; empty when it was honoured or is unset. The library then uses the best
/// backend it detected.
FASTBLAKE_API std::string_view backend_override_error() noexcept;

/// Switches every later hash in the process to the named backend, if it is available; returns
/// whether it did. Meant for tests and benchmarks: hashes already running keep their backend.
FASTBLAKE_API bool use_backend(std::string_view name) noexcept;

/// The active backend's schedule variant where it has several, no one of them fastest on every
/// core (avx512: "rows512" or "pairs256", how it lays out the last three or four chunks of a
/// run); empty where it has one. Decided at the backend's first hash, or here: the variant
/// FASTBLAKE_VARIANT names, else the one measured fastest on this kind of core (a table keyed
/// by vendor, family and model; docs/blake3-kernels.md, "Per-core variants"), else the faster
/// of a one-time measurement of each on this machine (tens of microseconds;
/// FASTBLAKE_VARIANT=measure asks for it where the table has the core). Every variant gives the
/// same hashes.
FASTBLAKE_API std::string_view active_variant() noexcept;

/// The active backend's variants; empty where it has one.
FASTBLAKE_API std::vector<std::string_view> available_variants();

/// How active_variant() was chosen, in one line: "FASTBLAKE_VARIANT", "the table of measured
/// cores (AMD family 0x19 model 0x11)", "measured on this core (rows512 1210 ns, pairs256
/// 1105 ns for four chunks)" or "use_variant"; empty where the backend has one variant.
FASTBLAKE_API std::string variant_choice();

/// Why FASTBLAKE_VARIANT was not honoured (neither "measure" nor a variant of the active
/// backend's),
/// in one sentence; empty when it was, or is unset.
FASTBLAKE_API std::string variant_override_error();

/// Switches the active backend to its variant of that name for every later hash; returns
/// whether it has one (for tests and benchmarks, as use_backend).
FASTBLAKE_API bool use_variant(std::string_view name) noexcept;

/// How the automatic functions use an accelerator, when the program links one.
enum class offload_mode {
  /// Each subtree of offload_min_size() bytes or more goes to the side, accelerator or CPU
  /// threads, that hashed the latest ones faster; each side is tried first and measured again
  /// from time to time. The default.
  automatic,
  /// Every subtree of more than one chunk goes to the accelerator (FASTBLAKE_BACKEND=its
  /// name): for tests.
  forced,
  /// Never (FASTBLAKE_BACKEND=cpu, a CPU backend's name, or another accelerator's).
  disabled,
};

/// Where the accelerator stands.
struct offload_status {
  /// "cuda" when the program links fastblake::cuda; empty when it links no accelerator.
  std::string_view name;
  offload_mode mode = offload_mode::automatic;
  /// Subtrees hashed on the accelerator, and subtrees big enough for it hashed on the CPU.
  std::uint64_t offloaded = 0;
  std::uint64_t kept = 0;
  /// Throughput of the latest subtrees on each side, bytes per second; 0 until measured.
  double accelerator_rate = 0;
  double cpu_rate = 0;
  /// Why the accelerator is no longer used (no device, a runtime error), if it failed: the
  /// subtree it failed on, and every later one, are hashed on the CPU.
  std::error_code error;
};

FASTBLAKE_API offload_status current_offload() noexcept;
/// Overrides FASTBLAKE_BACKEND's choice of offload_mode for every later hash; a value outside
/// the enumeration disables offloading.
FASTBLAKE_API void set_offload_mode(offload_mode mode) noexcept;
/// The smallest subtree offload_mode::automatic considers for the accelerator: 16 MiB unless
/// set. Below it, a launch and its synchronisation cost more than a GPU can save.
FASTBLAKE_API std::uint64_t offload_min_size() noexcept;
FASTBLAKE_API void set_offload_min_size(std::uint64_t bytes) noexcept;

}  // namespace fastblake
