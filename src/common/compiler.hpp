// Compiler hints used by the kernels.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define FASTBLAKE_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define FASTBLAKE_ALWAYS_INLINE __forceinline
#else
#define FASTBLAKE_ALWAYS_INLINE inline
#endif
