// Compiler hints used by the kernels, spelled for GCC, Clang and MSVC.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define FASTBLAKE_ALWAYS_INLINE inline __attribute__((always_inline))
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
