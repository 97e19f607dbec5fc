// Runs a test once for every kernel configuration: each backend (only portable so far) and,
// through the portable kernel, every SIMD degree the tree code must handle.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "blake3/kernels.hpp"

namespace fastblake::detail::blake3 {
/// Names the kernel configuration in GoogleTest's messages.
inline void PrintTo(const kernels* k, std::ostream* os) {
  *os << k->name << " x" << k->simd_degree;
}
}  // namespace fastblake::detail::blake3

namespace fastblake::test {

namespace k3 = fastblake::detail::blake3;

/// Every backend this machine can run, each also presented as 1, 2, 4, 8 and 16 lanes wide:
/// the tree code groups chunks and parents by simd_degree, and the kernels must accept any
/// count, so every grouping must give the same hashes.
inline const std::vector<const k3::kernels*>& kernel_configs() {
  static const std::vector<k3::kernels> variants = [] {
    std::vector<k3::kernels> v;
    for (const k3::kernels* backend : k3::available_kernels()) {
      v.push_back(*backend);
      for (std::size_t degree = 1; degree <= k3::max_simd_degree; degree *= 2) {
        if (degree == backend->simd_degree) continue;
        k3::kernels k = *backend;
        k.simd_degree = degree;
        v.push_back(k);
      }
    }
    return v;
  }();
  static const std::vector<const k3::kernels*> all = [] {
    std::vector<const k3::kernels*> v;
    for (const auto& k : variants) v.push_back(&k);
    return v;
  }();
  return all;
}

/// Whether k runs at its backend's own SIMD degree (the configuration users get).
inline bool is_native(const k3::kernels* k) {
  for (const k3::kernels* backend : k3::available_kernels())
    if (backend->name == k->name) return backend->simd_degree == k->simd_degree;
  return false;
}

inline std::string kernel_config_name(const testing::TestParamInfo<const k3::kernels*>& info) {
  return std::string(info.param->name) + "_x" + std::to_string(info.param->simd_degree);
}

/// Makes the parameter the active kernels for the test's duration.
class kernel_test : public testing::TestWithParam<const k3::kernels*> {
 protected:
  void SetUp() override {
    saved_ = &k3::active_kernels();
    k3::set_active_kernels(*GetParam());
    ASSERT_EQ(&k3::active_kernels(), GetParam()) << "the forced kernels are not the active ones";
  }
  void TearDown() override { k3::set_active_kernels(*saved_); }

 private:
  const k3::kernels* saved_ = nullptr;
};

}  // namespace fastblake::test

#define FASTBLAKE_INSTANTIATE_FOR_KERNELS(suite)                                                 \
  INSTANTIATE_TEST_SUITE_P(Kernels, suite, testing::ValuesIn(fastblake::test::kernel_configs()), \
                           fastblake::test::kernel_config_name)
