// fastblake::mpi's messages between the ranks of one call (mpi.cpp says how a job runs): their
// bytes (writer, reader), their transport (send, receive, broadcast on a private duplicate of
// the caller's communicator, waiting without spinning), the ranges of files a work item holds,
// and the tree of a file's pieces, which the root merges. Shared by the worker (worker.cpp), the
// coordinator (coordinator.cpp) and the API (mpi.cpp).
#pragma once

#include <fastblake/mpi.hpp>

#include <time.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace fastblake::mpi::detail {

namespace b3 = fastblake::blake3;
namespace hazmat = fastblake::blake3::hazmat;
using hazmat::chaining_value;

constexpr int request_tag = 1;  // worker to root: the results of its last item, and a request
constexpr int reply_tag = 2;    // root to worker: the next item, or none

// ---- messages ----

class writer {
 public:
  template <class T>
  void put(T value) {
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof value);
  }
  void put_bytes(std::span<const std::byte> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }
  void put_string(const std::string& s) {
    put(static_cast<std::uint32_t>(s.size()));
    put_bytes(std::as_bytes(std::span(s.data(), s.size())));
  }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

// Messages come from ranks of the same program: a malformed one is a bug, reported as such.
class reader {
 public:
  explicit reader(std::span<const std::byte> b) : bytes_(b) {}
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof value).data(), sizeof value);
    return value;
  }
  std::span<const std::byte> take(std::size_t n) {
    if (n > bytes_.size()) throw std::logic_error("fastblake::mpi: a malformed message");
    const auto b = bytes_.first(n);
    bytes_ = bytes_.subspan(n);
    return b;
  }
  std::string get_string() {
    const auto b = take(get<std::uint32_t>());
    return {reinterpret_cast<const char*>(b.data()), b.size()};
  }

 private:
  std::span<const std::byte> bytes_;
};

// Error codes travel as (which category, value).
inline void put_error(writer& w, const std::error_code& ec) {
  std::uint8_t which = 0;
  if (ec.category() == file_category()) {
    which = 1;
  } else if (ec.category() == category()) {
    which = 2;
  }
  w.put(which);
  w.put(static_cast<std::int32_t>(ec.value()));
}

inline std::error_code get_error(reader& r) {
  const auto which = r.get<std::uint8_t>();
  const auto value = r.get<std::int32_t>();
  if (which == 1) return {value, file_category()};
  if (which == 2) return {value, category()};
  return {value, std::generic_category()};
}

// Waits for a request without spinning: Open MPI's blocking calls poll at full speed, which
// takes the core from this rank's hashing threads (and, oversubscribed, from other ranks).
template <class Test>
inline void wait_politely(Test&& done) {
  auto pause = std::chrono::microseconds(0);
  const auto start = std::chrono::steady_clock::now();
  while (!done()) {
    if (std::chrono::steady_clock::now() - start > std::chrono::microseconds(50)) {
      pause = std::min(std::max(pause * 2, std::chrono::microseconds(10)),
                       std::chrono::microseconds(1000));
      std::this_thread::sleep_for(pause);
    }
  }
}

inline void wait_request(MPI_Request& request) {
  wait_politely([&] {
    int flag = 0;
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  });
}

// Receives the next message with `tag` from `source` (possibly MPI_ANY_SOURCE), of any size.
inline std::vector<std::byte> receive(MPI_Comm comm, int source, int tag, int* from = nullptr) {
  MPI_Message message;
  MPI_Status status;
  wait_politely([&] {
    int flag = 0;
    MPI_Improbe(source, tag, comm, &flag, &message, &status);
    return flag != 0;
  });
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<std::byte> bytes(static_cast<std::size_t>(count));
  MPI_Mrecv(bytes.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
  if (from != nullptr) *from = status.MPI_SOURCE;
  return bytes;
}

inline void send(MPI_Comm comm, int dest, int tag, std::vector<std::byte>& bytes) {
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::length_error("fastblake::mpi: a message over 2 GiB");
  }
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, dest, tag, comm);
}

// A duplicate of the caller's communicator for one call's messages.
class private_comm {
 public:
  explicit private_comm(MPI_Comm comm) {
    MPI_Comm_dup(comm, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~private_comm() { MPI_Comm_free(&comm_); }
  private_comm(const private_comm&) = delete;
  private_comm& operator=(const private_comm&) = delete;
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

inline void broadcast(const private_comm& comm, std::vector<std::byte>& bytes) {
  std::uint64_t size = bytes.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, comm.get(), &request);
  wait_request(request);
  bytes.resize(static_cast<std::size_t>(size));
  MPI_Ibcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, comm.get(), &request);
  wait_request(request);
}

// ---- the work ----

// One range of a file in an item: the whole file, or one of its pieces.
struct range {
  std::uint32_t file;  // the file's place in the job
  std::uint64_t file_size;
  std::uint64_t offset;
  std::uint64_t length;
  std::string path;
  bool whole() const { return offset == 0 && length == file_size; }
};

inline void put_range(writer& w, const range& r) {
  w.put(r.file);
  w.put(r.file_size);
  w.put(r.offset);
  w.put(r.length);
  w.put_string(r.path);
}

inline range get_range(reader& rd) {
  range r;
  r.file = rd.get<std::uint32_t>();
  r.file_size = rd.get<std::uint64_t>();
  r.offset = rd.get<std::uint64_t>();
  r.length = rd.get<std::uint64_t>();
  r.path = rd.get_string();
  return r;
}

// What hashing a range gives: for a piece, its chaining value; for a whole file, the two
// children of its root, or its bytes when it is one chunk.
struct range_result {
  std::error_code error;
  std::vector<std::byte> bytes;
};

// ---- the tree ----

// A subtree of one input: bytes [offset, offset + length), and its chaining value.
struct piece {
  std::uint64_t offset;
  std::uint64_t length;
  chaining_value cv;
};

// The chaining value of the node [lo, hi) of a tree whose subtrees `pieces` (sorted by
// offset) covers it.
inline chaining_value node_cv(std::span<const piece> pieces, std::uint64_t lo, std::uint64_t hi,
                              const hazmat::mode& m) {
  const auto at = std::lower_bound(pieces.begin(), pieces.end(), lo,
                                   [](const piece& p, std::uint64_t o) { return p.offset < o; });
  if (at == pieces.end() || at->offset != lo || at->length > hi - lo) {
    throw std::logic_error("fastblake::mpi: pieces that are not subtrees of the tree");
  }
  if (at->length == hi - lo) return at->cv;
  const std::uint64_t mid = lo + hazmat::left_subtree_len(hi - lo);
  return hazmat::merge_subtrees_non_root(node_cv(pieces, lo, mid, m), node_cv(pieces, mid, hi, m),
                                         m);
}

// The output of an input of `total` > chunk_size bytes from subtrees covering it.
inline b3::output_reader merge_root(std::span<const piece> pieces, std::uint64_t total,
                                    const hazmat::mode& m) {
  const std::uint64_t mid = hazmat::left_subtree_len(total);
  return hazmat::merge_subtrees_root_xof(node_cv(pieces, 0, mid, m), node_cv(pieces, mid, total, m),
                                         m);
}

// The largest subtree that can start at `offset` and end by `end` in an input of `total`
// bytes (end <= total, offset < end): aligned whole subtrees, the input's last subtree, and
// never the whole input.
inline std::uint64_t subtree_at(std::uint64_t offset, std::uint64_t end, std::uint64_t total) {
  const std::uint64_t alignment =
      offset == 0 ? hazmat::left_subtree_len(total) : offset & (~offset + 1);
  if (end == total && total - offset <= alignment) return total - offset;
  return std::bit_floor(std::min(alignment, end - offset));
}

inline double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace fastblake::mpi::detail
