// The official BLAKE3 C builds restricted to one x86 level (cmake/OfficialBlake3.cmake).
#include "official.hpp"

#if defined(FASTBLAKE_OFFICIAL_LEVELS)
FASTBLAKE_DECLARE_OFFICIAL_BUILD(sse2)
FASTBLAKE_DECLARE_OFFICIAL_BUILD(sse41)
FASTBLAKE_DECLARE_OFFICIAL_BUILD(avx2)
FASTBLAKE_DECLARE_OFFICIAL_BUILD(avx512)
#endif

namespace fastblake::bench {

std::span<const official_level> official_levels() {
#if defined(FASTBLAKE_OFFICIAL_LEVELS)
#define FASTBLAKE_OFFICIAL_LEVEL(build, degree)                                              \
  official_level {                                                                           \
#build, official_hash < official_##build##_blake3_hasher_init,                           \
        official_##build##_blake3_hasher_update, official_##build##_blake3_hasher_finalize>, \
        official_##build##_blake3_simd_degree, degree                                        \
  }
  static const official_level levels[] = {
      FASTBLAKE_OFFICIAL_LEVEL(sse2, 4), FASTBLAKE_OFFICIAL_LEVEL(sse41, 4),
      FASTBLAKE_OFFICIAL_LEVEL(avx2, 8), FASTBLAKE_OFFICIAL_LEVEL(avx512, 16)};
#undef FASTBLAKE_OFFICIAL_LEVEL
  return levels;
#else
  return {};
#endif
}

}  // namespace fastblake::bench
