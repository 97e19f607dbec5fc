// The backend API: what is available, switching, and the FASTBLAKE_BACKEND override (checked
// by ctest in fresh processes, one per name: the first hash fixes the choice).
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>

#include "fastblake_backends.hpp"
#include "test_support.hpp"

namespace fastblake::test {
namespace {

// Every backend of every processor, from the build's one list (cmake/Backends.cmake).
std::vector<std::string> known_backend_names() {
  std::vector<std::string> names;
  std::string_view rest = FASTBLAKE_KNOWN_BACKEND_NAMES;
  while (!rest.empty()) {
    const std::size_t comma = std::min(rest.find(", "), rest.size());
    names.emplace_back(rest.substr(0, comma));
    rest.remove_prefix(std::min(comma + 2, rest.size()));
  }
  return names;
}

TEST(Backend, KnownNamesIncludeEveryAvailableOne) {
  const auto known = known_backend_names();
  EXPECT_GE(known.size(), 6u);
  for (std::string_view name : available_backends()) {
    EXPECT_NE(std::find(known.begin(), known.end(), name), known.end()) << name;
  }
}

bool is_available(std::string_view name) {
  const auto all = available_backends();
  return std::find(all.begin(), all.end(), name) != all.end();
}

TEST(Backend, AvailableListsPortableLast) {
  const auto all = available_backends();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.back(), "portable");
  EXPECT_TRUE(is_available(active_backend()));
}

TEST(Backend, EveryBackendGivesTheSameHashes) {
  const std::string_view before = active_backend();
  const auto input = vector_input(100'000);
  ASSERT_TRUE(use_backend("portable"));
  const blake3::digest expected = blake3::hash(input);
  for (std::string_view name : available_backends()) {
    ASSERT_TRUE(use_backend(name)) << name;
    EXPECT_EQ(active_backend(), name);
    EXPECT_EQ(blake3::hash(input), expected) << name;
  }
  EXPECT_TRUE(use_backend(before));
}

TEST(Backend, UnknownOrUnavailableNamesAreRefused) {
  const std::string_view before = active_backend();
  EXPECT_FALSE(use_backend("nonsense"));
  EXPECT_FALSE(use_backend(""));
  EXPECT_FALSE(use_backend("AVX2")) << "names are lowercase";
  for (const std::string& name : known_backend_names()) {
    if (!is_available(name)) {
      EXPECT_FALSE(use_backend(name)) << name;
    }
  }
  EXPECT_EQ(active_backend(), before) << "a refused switch changes nothing";
}

// The cross builds' check that detection answers the CPU: ctest runs it under qemu with a CPU
// model that has the extension (the best backend expected) and one that lacks it (portable),
// naming the expected backend in FASTBLAKE_TEST_EXPECT_BACKEND. Elsewhere it is skipped.
TEST(BackendDetection, ChoosesWhatTheCpuHas) {
  const char* expected = std::getenv("FASTBLAKE_TEST_EXPECT_BACKEND");
  if (expected == nullptr) GTEST_SKIP() << "run by ctest's backend_detection_* tests";
  EXPECT_EQ(active_backend(), std::string_view(expected));
  EXPECT_EQ(available_backends().front(), std::string_view(expected));
}

// Meaningful only as the first thing a process hashes, with FASTBLAKE_BACKEND set: ctest runs
// it that way for every name (tests/CMakeLists.txt). Elsewhere it is skipped.
TEST(BackendOverride, FollowsTheEnvironment) {
  const char* env = std::getenv("FASTBLAKE_BACKEND");
  if (env == nullptr || std::getenv("FASTBLAKE_TEST_BACKEND_OVERRIDE") == nullptr) {
    GTEST_SKIP() << "run by ctest's backend_override_* tests";
  }
  const std::string name(env);
  if (name == "cpu") {
    EXPECT_EQ(active_backend(), available_backends().front());
    EXPECT_EQ(backend_override_error(), "");
    EXPECT_EQ(current_offload().mode, offload_mode::disabled);
  } else if (name == "cuda") {
    // This program links no accelerator: the name waits for a plug-in of that name.
    EXPECT_EQ(active_backend(), available_backends().front());
    EXPECT_NE(std::string(backend_override_error()).find("nor a registered accelerator's name"),
              std::string::npos)
        << backend_override_error();
    EXPECT_EQ(current_offload().mode, offload_mode::forced);
    EXPECT_EQ(current_offload().name, "");
  } else if (is_available(name)) {
    EXPECT_EQ(active_backend(), name);
    EXPECT_EQ(backend_override_error(), "");
  } else {
    EXPECT_EQ(active_backend(), available_backends().front()) << "falls back to the best";
    const std::string error(backend_override_error());
    EXPECT_NE(error.find("FASTBLAKE_BACKEND=" + name.substr(0, 10)), std::string::npos) << error;
  }
  EXPECT_EQ(blake3::hash(std::string_view("abc")).to_hex(),
            "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
}

// The variants of the active backend (avx512 has two; the others one): switching between them
// changes no hash, and an unknown name changes nothing.
TEST(Variants, SwitchingChangesNoHash) {
  const std::string backend(active_backend());
  const std::string before(active_variant());
  const auto names = available_variants();
  if (names.empty()) {
    EXPECT_EQ(before, "");
    EXPECT_EQ(variant_choice(), "");
    EXPECT_FALSE(use_variant("rows512"));
    GTEST_SKIP() << active_backend() << " has one variant";
  }
  EXPECT_NE(std::find(names.begin(), names.end(), before), names.end()) << before;
  EXPECT_FALSE(variant_choice().empty());
  // The variants differ in the last three or four chunks of a run: 3, 4 and 4 + 2 + 1 chunks
  // and a part.
  const auto input = vector_input(7 * 1024 + 100);
  const std::size_t sizes[] = {3 * 1024, 4 * 1024, input.size()};
  ASSERT_TRUE(use_backend("portable"));
  std::vector<blake3::digest> expected;
  for (std::size_t size : sizes) expected.push_back(blake3::hash(std::span(input).first(size)));
  ASSERT_TRUE(use_backend(backend));
  for (std::string_view name : names) {
    ASSERT_TRUE(use_variant(name)) << name;
    EXPECT_EQ(active_variant(), name);
    EXPECT_EQ(variant_choice(), "use_variant");
    for (std::size_t i = 0; i < std::size(sizes); ++i) {
      EXPECT_EQ(blake3::hash(std::span(input).first(sizes[i])), expected[i])
          << name << " " << sizes[i];
    }
  }
  const std::string_view current = active_variant();
  EXPECT_FALSE(use_variant("nonsense"));
  EXPECT_FALSE(use_variant(""));
  EXPECT_EQ(active_variant(), current) << "a refused switch changes nothing";
  EXPECT_TRUE(use_variant(before));
}

// Meaningful only as the first thing a process hashes, with FASTBLAKE_VARIANT set: ctest runs
// it so for each variant name, "measure" and an unknown name (tests/CMakeLists.txt).
TEST(VariantOverride, FollowsTheEnvironment) {
  const char* env = std::getenv("FASTBLAKE_VARIANT");
  if (env == nullptr || std::getenv("FASTBLAKE_TEST_VARIANT_OVERRIDE") == nullptr) {
    GTEST_SKIP() << "run by ctest's variant_override_* tests";
  }
  const std::string name(env);
  const auto names = available_variants();
  const std::string choice = variant_choice();
  const std::string error = variant_override_error();
  const bool known = std::find(names.begin(), names.end(), name) != names.end();
  if (names.empty()) {
    EXPECT_EQ(active_variant(), "");
    EXPECT_EQ(choice, "");
    if (name == "measure") {
      EXPECT_EQ(error, "");
    } else {
      EXPECT_NE(error.find("FASTBLAKE_VARIANT=" + name + " names no variant: the " +
                           std::string(active_backend()) + " backend has one"),
                std::string::npos)
          << error;
    }
  } else if (known) {
    EXPECT_EQ(active_variant(), name);
    EXPECT_EQ(choice, "FASTBLAKE_VARIANT");
    EXPECT_EQ(error, "");
  } else if (name == "measure") {
    EXPECT_EQ(error, "");
    EXPECT_EQ(choice.rfind("measured on this core (", 0), 0u) << choice;
    for (std::string_view variant : names) {
      EXPECT_NE(choice.find(std::string(variant) + " "), std::string::npos) << choice;
    }
  } else {
    EXPECT_NE(error.find("FASTBLAKE_VARIANT=" + name + " is none of the " +
                         std::string(active_backend()) + " backend's variants (rows512, " +
                         "pairs256); using " + std::string(active_variant())),
              std::string::npos)
        << error;
    EXPECT_TRUE(choice.rfind("the table of measured cores (", 0) == 0 ||
                choice.rfind("measured on this core (", 0) == 0)
        << choice;
  }
  const auto input = vector_input(4 * 1024);
  const blake3::digest ours = blake3::hash(input);
  ASSERT_TRUE(use_backend("portable"));
  EXPECT_EQ(ours, blake3::hash(input));
}

}  // namespace
}  // namespace fastblake::test
