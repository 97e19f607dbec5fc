// CPU feature detection, once per process.
#pragma once

#include <cstdint>

namespace fastblake::internal {

enum cpu_feature : std::uint32_t {
  feature_sse2 = 1u << 0,
  feature_ssse3 = 1u << 1,
  feature_sse41 = 1u << 2,
  feature_avx = 1u << 3,
  feature_avx2 = 1u << 4,
  feature_avx512f = 1u << 5,
  feature_avx512vl = 1u << 6,
  feature_neon = 1u << 7,
  feature_vsx = 1u << 9,
  feature_rvv = 1u << 10,
  feature_zvector = 1u << 11,
  feature_simd128 = 1u << 12,
  /// Not an instruction set: 512-bit vector operations run at about half the rate of 256-bit
  /// ones (AMD Zen 4 and 5), not at two thirds (Intel). Some kernels pick their layout by it.
  feature_half_rate_512 = 1u << 8,
};

/// The features this CPU has and the OS saves the registers of: a vector extension counts only
/// when XGETBV says the OS preserves its state across context switches.
std::uint32_t cpu_features() noexcept;

/// Which core this is, as the per-core tables (kernels/blake3/variant.cpp) key it: the vendor
/// and CPUID's display family and model (family 0x19 model 0x11 is AMD Zen 4 EPYC). Zeros
/// where there is no CPUID. A virtual machine may report another model than the silicon's.
enum class cpu_vendor : std::uint8_t { other, intel, amd };
struct cpu_identity {
  cpu_vendor vendor = cpu_vendor::other;
  std::uint32_t family = 0;
  std::uint32_t model = 0;
};
cpu_identity this_cpu() noexcept;

}  // namespace fastblake::internal
