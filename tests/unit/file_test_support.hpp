// What the file hashing tests share: their fixture, and the chaining value of a subtree of a
// file hashed by itself.
#pragma once

#include <cstdint>
#include <filesystem>

#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "os_support.hpp"
#include "scratch_dir.hpp"

namespace fastblake::test {

class FileHashing : public scratch_dir_test {};

// The chaining value of the subtree of `length` bytes at `offset` of the file, hashed by itself
// from a descriptor at that offset.
inline blake3::hazmat::chaining_value file_subtree(const std::filesystem::path& p,
                                                   std::uint64_t offset, std::uint64_t length,
                                                   thread_pool* pool) {
  const int fd = open_read(p);
  seek_fd(fd, offset);
  blake3::hasher h;
  blake3::hazmat::set_input_offset(h, offset);
  blake3::file_options options;
  options.pool = pool;
  options.max_length = length;
  blake3::update_from_fd(h, fd, options);
  close_fd(fd);
  return blake3::hazmat::finalize_non_root(h);
}

}  // namespace fastblake::test
