// A fixture with a directory of its own for the test's files, removed afterwards.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

#include "os_support.hpp"

namespace fastblake::test {

class scratch_dir_test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = "fastblake-test-";
    name.append(std::to_string(process_id())).append("-");
    name.append(::testing::UnitTest::GetInstance()->current_test_info()->name());
    dir_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  /// Writes data to the file `name` in the directory; returns its path.
  std::filesystem::path write(const std::string& name, std::span<const std::byte> data) {
    const std::filesystem::path p = dir_ / name;
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
    return p;
  }
  std::filesystem::path write(const std::string& name, std::string_view text) {
    return write(name, std::as_bytes(std::span<const char>(text.data(), text.size())));
  }

  std::filesystem::path dir_;
};

}  // namespace fastblake::test
