// Runs a test once for every kernel configuration: each backend this machine can run, at its
// own SIMD degree and at every other one the tree code must handle (kernel_configs()).
#pragma once

#include <deque>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backend/backend.hpp"
#include "kernels/blake3/kernels.hpp"

namespace fastblake::internal {
/// Names the kernel configuration in GoogleTest's messages.
inline void PrintTo(const backend* b, std::ostream* os) {
  *os << b->name << " x" << b->blake3->simd_degree;
}
}  // namespace fastblake::internal

namespace fastblake::test {

namespace k3 = fastblake::internal::blake3;
using fastblake::internal::backend;

/// Every backend this machine can run, each also presented with its BLAKE3 kernels 1, 2, 4, 8
/// and 16 lanes wide: the tree code groups chunks and parents by simd_degree, and the kernels
/// must accept any count, so every grouping must give the same hashes.
inline const std::vector<const backend*>& kernel_configs() {
  struct variant {
    backend b;
    k3::kernels k;
  };
  // A deque: the backends point into their own element.
  static const std::deque<variant> variants = [] {
    std::deque<variant> v;
    const auto add = [&v](const backend* b, std::size_t degree) {
      v.push_back({*b, *b->blake3});
      v.back().k.simd_degree = degree;
      v.back().b.blake3 = &v.back().k;
    };
    for (const backend* b : internal::available_backends()) {
      const std::size_t native = b->blake3->simd_degree;
      add(b, native);
      for (std::size_t degree = 1; degree <= k3::max_simd_degree; degree *= 2) {
        if (degree != native) add(b, degree);
      }
    }
    return v;
  }();
  static const std::vector<const backend*> all = [] {
    std::vector<const backend*> v;
    for (const auto& entry : variants) v.push_back(&entry.b);
    return v;
  }();
  return all;
}

/// Whether b runs at its backend's own SIMD degree (the configuration users get).
inline bool is_native(const backend* b) {
  const backend* original = internal::find_available_backend(b->name);
  return original != nullptr && original->blake3->simd_degree == b->blake3->simd_degree;
}

inline std::string kernel_config_name(const testing::TestParamInfo<const backend*>& info) {
  return std::string(info.param->name) + "_x" + std::to_string(info.param->blake3->simd_degree);
}

/// Makes the parameter the active backend for the test's duration.
class kernel_test : public testing::TestWithParam<const backend*> {
 protected:
  void SetUp() override {
    saved_ = &internal::active_backend();
    internal::set_active_backend(*GetParam());
    ASSERT_EQ(&k3::active_kernels(), GetParam()->blake3)
        << "the forced kernels are not the active ones";
  }
  void TearDown() override { internal::set_active_backend(*saved_); }

 private:
  const backend* saved_ = nullptr;
};

}  // namespace fastblake::test

#define FASTBLAKE_INSTANTIATE_FOR_KERNELS(suite)                                                 \
  INSTANTIATE_TEST_SUITE_P(Kernels, suite, testing::ValuesIn(fastblake::test::kernel_configs()), \
                           fastblake::test::kernel_config_name)
