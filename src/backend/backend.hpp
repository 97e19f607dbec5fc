// The backend: one instruction-set level, with its kernels for both families. One is active for
// the whole process; its list (cmake/Backends.cmake) is generated into fastblake_backends.hpp.
//
// The layer above the kernels (which know nothing of it) and below the modes that hash
// (docs/architecture.md, "Layers").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "kernels/blake2/kernels.hpp"
#include "kernels/blake3/kernels.hpp"

namespace fastblake::internal {

struct backend {
  /// As FASTBLAKE_BACKEND and use_backend spell it: avx512, avx2, sse41, sse2, neon, vsx, zvector,
  /// rvv, portable.
  std::string_view name;
  /// The cpu_feature bits (common/cpu_features.hpp) the CPU needs to run its kernels.
  std::uint32_t required_features;
  const blake3::kernels* blake3;
  /// Its own BLAKE2 kernels, or portable's where it has none (blake2_level says which).
  const blake2::kernels* blake2;
  std::string_view blake2_level;
};

/// The compiled-in backends this CPU can run, best first; portable is last.
std::span<const backend* const> available_backends() noexcept;

/// The available backend of that name, or nullptr.
const backend* find_available_backend(std::string_view name) noexcept;

/// The backend every hash uses: the best the CPU has, FASTBLAKE_BACKEND's, or the last one
/// set_active_backend chose. One acquire load once the first call has decided.
const backend& active_backend() noexcept;

/// Makes b the active backend for every later hash in the process (tests and benchmarks; b
/// may be one they built, with other kernels). b must outlive its use.
void set_active_backend(const backend& b) noexcept;

namespace blake3 {
/// The kernels every BLAKE3 hash uses: the active backend's.
inline const kernels& active_kernels() noexcept { return *active_backend().blake3; }
}  // namespace blake3

namespace blake2 {
/// The kernels every BLAKE2 hash uses: the active backend's.
inline const kernels& active_kernels() noexcept { return *active_backend().blake2; }
}  // namespace blake2

/// What FASTBLAKE_BACKEND asks of the offload to `accelerator`, the registered plug-in's name
/// (empty when none is): nothing when unset; off for "cpu", a CPU backend's name or another
/// accelerator's; every subtree there for its name, or for any name that is no CPU backend's
/// while none is registered (a plug-in of that name may come).
enum class offload_request { automatic, disabled, forced };
offload_request requested_offload(std::string_view accelerator) noexcept;

}  // namespace fastblake::internal
