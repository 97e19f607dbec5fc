// Which instruction-set backend fastblake runs on.
//
// fastblake picks the best backend this CPU supports the first time it hashes, and keeps it.
// The environment variable FASTBLAKE_BACKEND=portable|sse2|sse41|avx2|avx512|neon, read at
// that moment, forces one (for tests and benchmarks). All functions here are thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include <fastblake/config.hpp>

namespace fastblake {

/// The backend in use: portable, sse2, sse41, avx2, avx512 or neon.
FASTBLAKE_API std::string_view active_backend() noexcept;

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

}  // namespace fastblake
