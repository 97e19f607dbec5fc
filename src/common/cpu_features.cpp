// CPUID and XGETBV on x86-64, the kernel's hardware capabilities (AT_HWCAP) on POWER, IBM Z and
// RISC-V; fixed answers elsewhere. Compiled at baseline flags.
#include "common/cpu_features.hpp"

#include "os/process.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#if defined(_MSC_VER)
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#endif
#if defined(__powerpc64__) && defined(__linux__)
#ifndef PPC_FEATURE_HAS_VSX
#define PPC_FEATURE_HAS_VSX 0x00000080
#endif
#endif

namespace fastblake::internal {
namespace {

#if defined(__x86_64__) || defined(_M_X64)

struct cpuid_regs {
  std::uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

cpuid_regs cpuid(std::uint32_t leaf, std::uint32_t subleaf) noexcept {
  cpuid_regs r;
#if defined(_MSC_VER)
  int out[4];
  __cpuidex(out, static_cast<int>(leaf), static_cast<int>(subleaf));
  r = {static_cast<std::uint32_t>(out[0]), static_cast<std::uint32_t>(out[1]),
       static_cast<std::uint32_t>(out[2]), static_cast<std::uint32_t>(out[3])};
#else
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
#endif
  return r;
}

// XCR0: which register states the OS saves. Only valid when CPUID says OSXSAVE.
std::uint64_t xcr0() noexcept {
#if defined(_MSC_VER)
  return _xgetbv(0);
#else
  std::uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
#endif
}

// Leaf 0's vendor string in EBX, EDX, ECX; leaf 1's family and model with their extended
// fields added as the vendors' manuals define the display values.
cpu_identity detect_identity() noexcept {
  cpu_identity id;
  const cpuid_regs vendor = cpuid(0, 0);
  if (vendor.ebx == 0x756E6547 && vendor.edx == 0x49656E69 && vendor.ecx == 0x6C65746E) {
    id.vendor = cpu_vendor::intel;  // "GenuineIntel"
  } else if (vendor.ebx == 0x68747541 && vendor.edx == 0x69746E65 && vendor.ecx == 0x444D4163) {
    id.vendor = cpu_vendor::amd;  // "AuthenticAMD"
  }
  if (vendor.eax < 1) return id;
  const std::uint32_t eax = cpuid(1, 0).eax;
  const std::uint32_t base_family = (eax >> 8) & 0xF, base_model = (eax >> 4) & 0xF;
  id.family = base_family == 0xF ? base_family + ((eax >> 20) & 0xFF) : base_family;
  id.model =
      base_family == 0x6 || base_family == 0xF ? base_model | ((eax >> 12) & 0xF0) : base_model;
  return id;
}

std::uint32_t detect() noexcept {
  constexpr std::uint64_t xmm_ymm_state = 0x6;      // SSE and AVX state (XCR0 bits 1, 2)
  constexpr std::uint64_t zmm_opmask_state = 0xE0;  // opmask, ZMM0-15 high, ZMM16-31 (5-7)
  std::uint32_t features = 0;
  const std::uint32_t max_leaf = cpuid(0, 0).eax;
  const cpuid_regs leaf1 = cpuid(1, 0);
  if (leaf1.edx & (1u << 26)) features |= feature_sse2;
  if (leaf1.ecx & (1u << 9)) features |= feature_ssse3;
  if (leaf1.ecx & (1u << 19)) features |= feature_sse41;
  const bool osxsave = leaf1.ecx & (1u << 27);
  if (!osxsave) return features;
  const std::uint64_t xcr = xcr0();
  if ((xcr & xmm_ymm_state) != xmm_ymm_state) return features;
  if (leaf1.ecx & (1u << 28)) features |= feature_avx;
  if (max_leaf < 7) return features;
  const cpuid_regs leaf7 = cpuid(7, 0);
  if ((features & feature_avx) && (leaf7.ebx & (1u << 5))) features |= feature_avx2;
  if (os::avx512_state_usable((xcr & zmm_opmask_state) == zmm_opmask_state)) {
    if (leaf7.ebx & (1u << 16)) features |= feature_avx512f;
    if (leaf7.ebx & (1u << 31)) features |= feature_avx512vl;
  }
  // Every AMD core with AVX-512 so far (Zen 4, 5).
  if (detect_identity().vendor == cpu_vendor::amd) features |= feature_half_rate_512;
  return features;
}

#elif defined(__aarch64__) || defined(_M_ARM64)

// Advanced SIMD is mandatory in AArch64 (Windows is asked all the same).
std::uint32_t detect() noexcept { return os::neon_usable() ? std::uint32_t{feature_neon} : 0; }

#elif defined(__powerpc64__) && defined(__linux__)

// The kernel's hardware capabilities; ppc64le's ABI needs POWER8, whose VSX every such CPU has,
// but the bit is still what says so.
std::uint32_t detect() noexcept {
  return (os::hardware_capabilities() & PPC_FEATURE_HAS_VSX) != 0 ? std::uint32_t{feature_vsx} : 0;
}

#elif defined(__s390x__) && defined(__linux__)

// The vector facility (z13 and later), where the kernel saves the vector registers.
std::uint32_t detect() noexcept {
  constexpr unsigned long hwcap_s390_vx = 2048;  // HWCAP_S390_VX
  return (os::hardware_capabilities() & hwcap_s390_vx) != 0 ? std::uint32_t{feature_zvector} : 0;
}

#elif defined(__EMSCRIPTEN__)

// A WebAssembly module is validated whole: one holding the simd128 kernel loads only where the
// engine has SIMD, so where it runs, SIMD is there. Choosing between modules is the loader's
// (the JavaScript wrapper's) part.
std::uint32_t detect() noexcept { return feature_simd128; }

#elif defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)

// Linux reports the single-letter extensions as bits of AT_HWCAP: 'V' is the vector extension
// 1.0 (the kernel sets it only where it saves the vector state).
std::uint32_t detect() noexcept {
  return (os::hardware_capabilities() & (1ul << ('V' - 'A'))) != 0 ? std::uint32_t{feature_rvv} : 0;
}

#else

std::uint32_t detect() noexcept { return 0; }

#endif

#if !defined(__x86_64__) && !defined(_M_X64)
cpu_identity detect_identity() noexcept { return {}; }
#endif

}  // namespace

std::uint32_t cpu_features() noexcept {
  static const std::uint32_t features = detect();
  return features;
}

cpu_identity this_cpu() noexcept {
  static const cpu_identity id = detect_identity();
  return id;
}

}  // namespace fastblake::internal
