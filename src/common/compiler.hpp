// Compiler hints used by the kernels, spelled for GCC, Clang and MSVC.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FASTBLAKE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FASTBLAKE_SANITIZED 1
#endif

#if defined(__GNUC__) || defined(__clang__)
// Sanitized builds check behaviour, not speed: forcing the unrolled rounds into every caller
// under instrumentation takes the compiler minutes per kernel file, against seconds without.
#if defined(FASTBLAKE_SANITIZED)
#define FASTBLAKE_ALWAYS_INLINE inline
#else
#define FASTBLAKE_ALWAYS_INLINE inline __attribute__((always_inline))
#endif
#define FASTBLAKE_PREFETCH(address) __builtin_prefetch(address)
#elif defined(_MSC_VER)
#include <intrin.h>
#define FASTBLAKE_ALWAYS_INLINE __forceinline
#if defined(_M_X64)
#define FASTBLAKE_PREFETCH(address) \
  _mm_prefetch(reinterpret_cast<const char*>(address), _MM_HINT_T0)
#else
#define FASTBLAKE_PREFETCH(address) ((void)(address))
#endif
#else
#define FASTBLAKE_ALWAYS_INLINE inline
#define FASTBLAKE_PREFETCH(address) ((void)(address))
#endif
