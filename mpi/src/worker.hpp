// A worker of fastblake::mpi (mpi.cpp says how a job runs): every rank runs one, the root's
// beside its coordinator. It hashes the ranges of each work item and answers with their
// chaining values, or their errors.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "protocol.hpp"

namespace fastblake::mpi::detail {

// Reads with the file API: its strategies (mapped, or pread into buffers hashed while the next
// is read), its SIGBUS guard and its errors; max_length ends each subtree.
// A worker's last file, kept open: consecutive pieces of one file often go to the same rank,
// and an open on a parallel file system is a round trip to its metadata server.
class open_file {
 public:
  open_file() = default;
  ~open_file() { close(); }
  open_file(const open_file&) = delete;
  open_file& operator=(const open_file&) = delete;

  // The descriptor of `path`, or -1 with errno set.
  int get(const std::string& path) {
    if (fd_ >= 0 && path == path_) return fd_;
    close();
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ >= 0) path_ = path;
    return fd_;
  }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
  std::string path_;
};

// A worker's item: ranges in, their results out, as the message to the root.
std::vector<std::byte> work(std::span<const std::byte> item, const hazmat::mode& m,
                            const options& o, thread_pool& pool, open_file& opened);

inline thread_pool& pool_of(const options& o) {
  return o.pool != nullptr ? *o.pool : thread_pool::default_pool();
}

// A rank other than the root: asks for items until there are none.
void serve(const private_comm& comm, const hazmat::mode& m, const options& o);

}  // namespace fastblake::mpi::detail
