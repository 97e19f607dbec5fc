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
/// must accept any count, so every grouping must give the same hashes. A backend with variants
/// (kernels.hpp) runs the one this CPU chose at every degree, and each other one at its own
/// degree, as the backend "<name>_<variant>".
struct kernel_config {
  backend b;
  k3::kernels k;
  std::string name;
  bool native = false;
};

inline const std::deque<kernel_config>& kernel_config_list() {
  // A deque: the backends point into their own element.
  static const std::deque<kernel_config> configs = [] {
    std::deque<kernel_config> v;
    const auto add = [&v](const backend* b, std::size_t degree, const k3::kernel_variant* variant) {
      v.push_back({*b, *b->blake3, std::string(b->name), degree == b->blake3->simd_degree});
      kernel_config& c = v.back();
      c.k.simd_degree = degree;
      if (variant != nullptr) {
        c.k.hash_chunks = variant->hash_chunks;
        c.k.variants = nullptr;
        c.name += "_" + std::string(variant->name);
      }
      c.b.name = c.name;
      c.b.blake3 = &c.k;
    };
    for (const backend* b : internal::available_backends()) {
      const std::size_t native = b->blake3->simd_degree;
      add(b, native, nullptr);
      for (std::size_t degree = 1; degree <= k3::max_simd_degree; degree *= 2) {
        if (degree != native) add(b, degree, nullptr);
      }
      if (k3::variant_selector* selector = b->blake3->variants) {
        for (const k3::kernel_variant& variant : selector->variants()) {
          if (std::string_view(variant.name) != selector->current().name) add(b, native, &variant);
        }
      }
    }
    return v;
  }();
  return configs;
}

inline const std::vector<const backend*>& kernel_configs() {
  static const std::vector<const backend*> all = [] {
    std::vector<const backend*> v;
    for (const auto& entry : kernel_config_list()) v.push_back(&entry.b);
    return v;
  }();
  return all;
}

/// Whether b runs at its backend's own SIMD degree, in any variant (a configuration users get).
inline bool is_native(const backend* b) {
  for (const auto& entry : kernel_config_list()) {
    if (&entry.b == b) return entry.native;
  }
  return false;
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
