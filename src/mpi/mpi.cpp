// fastblake::mpi (mpi.hpp): BLAKE3 across the ranks of an MPI job.
//
// A job is a list of ranges of files. Rank 0 (the root) plans it: files up to the piece size
// are hashed whole, many to a work item; larger files are cut into pieces of the piece size,
// each a whole subtree of the file's BLAKE3 tree. A coordinator on the root's calling thread
// hands items out one at a time to whichever worker asks (each rank, the root included, runs
// one), so a slow node or disk holds back only its own item. A worker sends back chaining
// values; the root merges each file's in tree order and reports the files in order.
#include <fastblake/mpi.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace fastblake::mpi {
namespace {

namespace b3 = fastblake::blake3;
namespace hazmat = fastblake::blake3::hazmat;
using hazmat::chaining_value;

constexpr int request_tag = 1;  // worker to root: the results of its last item, and a request
constexpr int reply_tag = 2;    // root to worker: the next item, or none
// Files up to this size (and up to the piece size) are hashed many to an item, each on one
// thread of the worker's pool; larger ones one at a time, on all of them.
constexpr std::uint64_t small_file_size = 1u << 20;
constexpr std::uint64_t batch_bytes = 32u << 20;
constexpr std::size_t batch_files = 256;

class mpi_error_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "fastblake.mpi"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::size_changed:
        return "the file changed size while it was being hashed";
    }
    return "unknown fastblake.mpi error";
  }
};

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
void put_error(writer& w, const std::error_code& ec) {
  std::uint8_t which = 0;
  if (ec.category() == file_category()) {
    which = 1;
  } else if (ec.category() == category()) {
    which = 2;
  }
  w.put(which);
  w.put(static_cast<std::int32_t>(ec.value()));
}

std::error_code get_error(reader& r) {
  const auto which = r.get<std::uint8_t>();
  const auto value = r.get<std::int32_t>();
  if (which == 1) return {value, file_category()};
  if (which == 2) return {value, category()};
  return {value, std::generic_category()};
}

// Waits for a request without spinning: Open MPI's blocking calls poll at full speed, which
// takes the core from this rank's hashing threads (and, oversubscribed, from other ranks).
template <class Test>
void wait_politely(Test&& done) {
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

void wait_request(MPI_Request& request) {
  wait_politely([&] {
    int flag = 0;
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  });
}

// Receives the next message with `tag` from `source` (possibly MPI_ANY_SOURCE), of any size.
std::vector<std::byte> receive(MPI_Comm comm, int source, int tag, int* from = nullptr) {
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

void send(MPI_Comm comm, int dest, int tag, std::vector<std::byte>& bytes) {
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

// ---- the tree ----

// A subtree of one input: bytes [offset, offset + length), and its chaining value.
struct piece {
  std::uint64_t offset;
  std::uint64_t length;
  chaining_value cv;
};

// The chaining value of the node [lo, hi) of a tree whose subtrees `pieces` (sorted by
// offset) covers it.
chaining_value node_cv(std::span<const piece> pieces, std::uint64_t lo, std::uint64_t hi,
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
b3::output_reader merge_root(std::span<const piece> pieces, std::uint64_t total,
                             const hazmat::mode& m) {
  const std::uint64_t mid = hazmat::left_subtree_len(total);
  return hazmat::merge_subtrees_root_xof(node_cv(pieces, 0, mid, m), node_cv(pieces, mid, total, m),
                                         m);
}

// The largest subtree that can start at `offset` and end by `end` in an input of `total`
// bytes (end <= total, offset < end): aligned whole subtrees, the input's last subtree, and
// never the whole input.
std::uint64_t subtree_at(std::uint64_t offset, std::uint64_t end, std::uint64_t total) {
  const std::uint64_t alignment =
      offset == 0 ? hazmat::left_subtree_len(total) : offset & (~offset + 1);
  if (end == total && total - offset <= alignment) return total - offset;
  return std::bit_floor(std::min(alignment, end - offset));
}

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// ---- reading ----

// Whether the open file still has the size the job was planned with.
std::error_code check_size(int fd, std::uint64_t size) {
  struct stat info;
  if (::fstat(fd, &info) != 0) return {errno, std::generic_category()};
  if (static_cast<std::uint64_t>(info.st_size) != size) return errc::size_changed;
  return {};
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

void put_range(writer& w, const range& r) {
  w.put(r.file);
  w.put(r.file_size);
  w.put(r.offset);
  w.put(r.length);
  w.put_string(r.path);
}

range get_range(reader& rd) {
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

range_result hash_range(const range& r, const hazmat::mode& m, const options& o, thread_pool& pool,
                        open_file& opened) {
  range_result result;
  std::error_code& ec = result.error;
  const int fd = opened.get(r.path);
  if (fd < 0) {
    ec.assign(errno, std::generic_category());
    return result;
  }
  file_options file;
  file.strategy = o.strategy;
  file.pool = &pool;
  const auto subtree = [&](std::uint64_t offset, std::uint64_t length) {
    b3::hasher h(m);
    if (offset != 0) hazmat::set_input_offset(h, offset);
    file.max_length = length;
    if (::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) {
      ec.assign(errno, std::generic_category());
      return;
    }
    b3::update_from_fd(h, fd, file, ec);
    if (!ec && h.count() != length) ec = file_errc::truncated;
    if (ec) return;
    const chaining_value cv = hazmat::finalize_non_root(h);
    const auto bytes = std::as_bytes(std::span(cv));
    result.bytes.insert(result.bytes.end(), bytes.begin(), bytes.end());
  };
  ec = check_size(fd, r.file_size);
  if (ec) {
  } else if (r.whole() && r.length <= b3::chunk_size) {
    std::byte bytes[b3::chunk_size];
    std::size_t got = 0;
    while (!ec && got < r.length) {
      const ssize_t n = ::pread(fd, bytes + got, r.length - got, static_cast<off_t>(got));
      if (n < 0 && errno != EINTR) ec.assign(errno, std::generic_category());
      if (n == 0) ec = file_errc::truncated;
      if (n > 0) got += static_cast<std::size_t>(n);
    }
    if (!ec) result.bytes.assign(bytes, bytes + got);
  } else if (r.whole()) {
    const std::uint64_t left = hazmat::left_subtree_len(r.length);
    subtree(0, left);
    if (!ec) subtree(left, r.length - left);
  } else {
    subtree(r.offset, r.length);
  }
  // What was read must be what the job planned: a file that grew since is not the file the
  // other ranks read.
  if (!ec) ec = check_size(fd, r.file_size);
  // A file that failed is opened afresh next time.
  if (ec) opened.close();
  return result;
}

// A worker's item: ranges in, their results out, as the message to the root.
std::vector<std::byte> work(std::span<const std::byte> item, const hazmat::mode& m,
                            const options& o, thread_pool& pool, open_file& opened) {
  reader rd(item);
  std::vector<range> ranges(rd.get<std::uint32_t>());
  for (range& r : ranges) r = get_range(rd);
  std::vector<range_result> results(ranges.size());
  if (ranges.size() == 1) {
    results[0] = hash_range(ranges[0], m, o, pool, opened);
  } else {
    // Small files, one per thread of the pool.
    const auto split = [&](auto& self, std::size_t first, std::size_t last) -> void {
      if (last - first == 1) {
        open_file own;
        results[first] = hash_range(ranges[first], m, o, pool, own);
        return;
      }
      const std::size_t mid = first + (last - first) / 2;
      pool.join([&] { self(self, first, mid); }, [&] { self(self, mid, last); });
    };
    if (!ranges.empty()) split(split, 0, ranges.size());
  }
  writer w;
  w.put(static_cast<std::uint32_t>(ranges.size()));
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    w.put(ranges[k].file);
    w.put(ranges[k].offset);
    w.put(static_cast<std::uint8_t>(results[k].error ? 1 : 0));
    if (results[k].error) {
      put_error(w, results[k].error);
    } else {
      w.put_bytes(results[k].bytes);
    }
  }
  return std::move(w.bytes());
}

thread_pool& pool_of(const options& o) {
  return o.pool != nullptr ? *o.pool : thread_pool::default_pool();
}

// The pieces of a file of `size` bytes on `ranks` ranks. Pieces are handed out as ranks ask,
// so the ranks finish within about one piece of each other: at least 16 pieces a rank keep
// that tail under a sixteenth of the time, and pieces of 16 MiB or more keep the cost of
// asking (a round trip, an open) small against reading and hashing one.
std::uint64_t piece_size_of(const options& o, std::uint64_t size, int ranks) {
  if (o.piece_size != 0)
    return std::bit_floor(std::max<std::uint64_t>(o.piece_size, b3::chunk_size));
  constexpr std::uint64_t smallest = 16u << 20, largest = 256u << 20;
  const std::uint64_t share = size / (16 * static_cast<std::uint64_t>(ranks));
  return std::clamp(std::bit_floor(std::max<std::uint64_t>(share, 1)), smallest, largest);
}

// A rank other than the root: asks for items until there are none.
void serve(const private_comm& comm, const hazmat::mode& m, const options& o) {
  thread_pool& pool = pool_of(o);
  open_file opened;
  std::vector<std::byte> results;
  for (;;) {
    send(comm.get(), 0, request_tag, results);
    const std::vector<std::byte> item = receive(comm.get(), 0, reply_tag);
    if (item.empty()) return;
    results = work(item, m, o, pool, opened);
  }
}

// ---- the root ----

struct planned_file {
  std::uint64_t size = 0;
  std::uint64_t piece_size = 0;
  bool local = false;  // hashed on the root by update_from_file
  std::uint64_t pieces_left = 0;
  std::vector<piece> pieces;
  std::optional<b3::output_reader> output;
  std::error_code error;
  bool done = false;
};

class coordinator {
 public:
  coordinator(const private_comm& comm, std::span<const std::filesystem::path> paths,
              const hazmat::mode& m, const options& o)
      : comm_(comm), paths_(paths), mode_(m), options_(o), files_(paths.size()) {
    plan();
  }

  void run(const result_callback& done) {
    std::thread local([this] { local_worker(); });
    std::exception_ptr failure;
    try {
      coordinate(done);
    } catch (...) {
      failure = std::current_exception();
    }
    if (failure) {
      // Stop handing out work, and let every worker finish what it holds.
      {
        const std::lock_guard lock(mutex_);
        cancelled_ = true;
      }
      try {
        while (workers_stopped_ < comm_.size() - 1) serve_one_request(true);
      } catch (...) {
      }
    }
    local.join();
    if (failure) std::rethrow_exception(failure);
  }

 private:
  void plan() {
    const std::uint64_t small =
        std::min(small_file_size, piece_size_of(options_, small_file_size, comm_.size()));
    std::vector<range> batch;
    std::uint64_t batch_size = 0;
    const auto flush = [&] {
      if (!batch.empty()) items_.push_back(std::move(batch));
      batch.clear();
      batch_size = 0;
    };
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      planned_file& f = files_[i];
      struct stat info;
      const std::string path = paths_[i].string();
      if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_size == 0) {
        // The root alone, as update_from_file does it: its errors and special files.
        f.local = true;
        if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
          total_ += static_cast<std::uint64_t>(info.st_size);
        }
        local_items_.push_back(i);
        continue;
      }
      f.size = static_cast<std::uint64_t>(info.st_size);
      f.piece_size = piece_size_of(options_, f.size, comm_.size());
      const std::uint64_t piece_size = f.piece_size;
      total_ += f.size;
      const auto index = static_cast<std::uint32_t>(i);
      if (f.size <= small) {
        if (batch.size() == batch_files || batch_size + f.size > batch_bytes) flush();
        batch.push_back({index, f.size, 0, f.size, path});
        batch_size += f.size;
      } else if (f.size <= piece_size) {
        flush();
        f.pieces_left = 1;
        items_.push_back({{index, f.size, 0, f.size, path}});
      } else {
        flush();
        f.pieces_left = (f.size + piece_size - 1) / piece_size;
        for (std::uint64_t at = 0; at < f.size; at += piece_size) {
          items_.push_back({{index, f.size, at, std::min(piece_size, f.size - at), path}});
        }
      }
      if (f.size <= small) f.pieces_left = 1;
    }
    flush();
  }

  // The next item for a worker; empty when there is none. Holds mutex_.
  std::optional<std::vector<range>> next_item() {
    while (!cancelled_ && next_item_ < items_.size()) {
      std::vector<range>& item = items_[next_item_++];
      // Pieces of a file that already failed are not worth reading.
      std::erase_if(item, [&](const range& r) { return files_[r.file].error.operator bool(); });
      if (item.empty()) continue;
      if (options_.stats != nullptr) {
        ++options_.stats->items;
        options_.stats->ranges += item.size();
      }
      return std::move(item);
    }
    return std::nullopt;
  }

  static std::vector<std::byte> item_message(const std::vector<range>& item) {
    writer w;
    w.put(static_cast<std::uint32_t>(item.size()));
    for (const range& r : item) put_range(w, r);
    return std::move(w.bytes());
  }

  // The root's own worker: the local items first, then its share of the rest.
  void local_worker() {
    open_file opened;
    file_options file;
    file.pool = options_.pool;
    file.strategy = options_.strategy;
    for (;;) {
      std::optional<std::size_t> local;
      std::optional<std::vector<range>> item;
      {
        const std::lock_guard lock(mutex_);
        if (!cancelled_ && !local_items_.empty()) {
          local = local_items_.front();
          local_items_.pop_front();
        } else {
          item = next_item();
        }
      }
      if (local) {
        b3::hasher h(mode_);
        std::error_code ec;
        b3::update_from_file(h, paths_[*local], file, ec);
        const std::lock_guard lock(mutex_);
        planned_file& f = files_[*local];
        if (ec) {
          f.error = ec;
        } else {
          f.output = h.finalize_xof();
          done_bytes_ += h.count();
        }
        f.done = true;
      } else if (item) {
        std::vector<std::byte> results =
            work(item_message(*item), mode_, options_, pool_of(options_), opened);
        const std::lock_guard lock(mutex_);
        local_results_.push_back(std::move(results));
      } else {
        const std::lock_guard lock(mutex_);
        local_finished_ = true;
        changed_.notify_all();
        return;
      }
      changed_.notify_all();
    }
  }

  // Takes a worker's results in. Holds mutex_.
  void take_results(std::span<const std::byte> message) {
    if (message.empty()) return;
    reader rd(message);
    const auto count = rd.get<std::uint32_t>();
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto index = rd.get<std::uint32_t>();
      const auto offset = rd.get<std::uint64_t>();
      const bool failed = rd.get<std::uint8_t>() != 0;
      planned_file& f = files_.at(index);
      const std::uint64_t piece_size = f.piece_size;
      const std::uint64_t length =
          f.size <= piece_size ? f.size : std::min(piece_size, f.size - offset);
      done_bytes_ += length;
      if (failed) {
        const std::error_code ec = get_error(rd);
        if (!f.error) f.error = ec;
        f.done = true;
        continue;
      }
      if (f.size <= b3::chunk_size) {
        const auto bytes = rd.take(static_cast<std::size_t>(f.size));
        f.output = b3::hasher(mode_).update(bytes).finalize_xof();
      } else if (f.size <= piece_size) {
        const std::uint64_t left = hazmat::left_subtree_len(f.size);
        piece children[2] = {{0, left, {}}, {left, f.size - left, {}}};
        for (piece& p : children) std::memcpy(p.cv.data(), rd.take(p.cv.size()).data(), 32);
        f.output = merge_root(children, f.size, mode_);
      } else {
        piece p{offset, length, {}};
        std::memcpy(p.cv.data(), rd.take(p.cv.size()).data(), p.cv.size());
        if (f.error) continue;
        f.pieces.push_back(p);
        if (--f.pieces_left > 0) continue;
        std::sort(f.pieces.begin(), f.pieces.end(),
                  [](const piece& a, const piece& b) { return a.offset < b.offset; });
        f.output = merge_root(f.pieces, f.size, mode_);
        f.pieces = {};
      }
      f.done = true;
    }
  }

  // Answers one worker's request with its next item, or with none. Returns false if no
  // request was waiting.
  bool serve_one_request(bool block) {
    if (comm_.size() == 1) return false;
    MPI_Message message;
    MPI_Status status;
    int flag = 0;
    if (block) {
      wait_politely([&] {
        MPI_Improbe(MPI_ANY_SOURCE, request_tag, comm_.get(), &flag, &message, &status);
        return flag != 0;
      });
    } else {
      MPI_Improbe(MPI_ANY_SOURCE, request_tag, comm_.get(), &flag, &message, &status);
      if (flag == 0) return false;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<std::byte> results(static_cast<std::size_t>(count));
    MPI_Mrecv(results.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    std::vector<std::byte> reply;
    {
      const std::lock_guard lock(mutex_);
      take_results(results);
      if (auto item = next_item()) {
        reply = item_message(*item);
      } else {
        ++workers_stopped_;
      }
    }
    send(comm_.get(), status.MPI_SOURCE, reply_tag, reply);
    return true;
  }

  void coordinate(const result_callback& done) {
    const double cpu_start = thread_cpu_seconds();
    struct account {
      statistics* stats;
      double start;
      ~account() {
        if (stats != nullptr) stats->coordinator_seconds += thread_cpu_seconds() - start;
      }
    } const accounted{options_.stats, cpu_start};
    std::size_t delivered = 0;
    std::uint64_t reported = ~std::uint64_t{0};
    auto pause = std::chrono::microseconds(0);
    for (;;) {
      bool busy = serve_one_request(false);
      std::vector<std::pair<std::size_t, b3::file_result>> ready;
      bool finished = false;
      std::uint64_t done_bytes = 0;
      {
        std::unique_lock lock(mutex_);
        while (!local_results_.empty()) {
          take_results(local_results_.front());
          local_results_.pop_front();
          busy = true;
        }
        while (delivered < files_.size() && files_[delivered].done) {
          planned_file& f = files_[delivered];
          ready.emplace_back(
              delivered,
              b3::file_result{f.output ? *f.output : b3::hasher().finalize_xof(), f.error});
          f.output.reset();
          ++delivered;
        }
        finished =
            delivered == files_.size() && local_finished_ && workers_stopped_ == comm_.size() - 1;
        done_bytes = done_bytes_;
        if (!busy && ready.empty() && !finished) {
          if (comm_.size() == 1) {
            changed_.wait(lock);
          } else {
            pause = std::min(std::max(pause * 2, std::chrono::microseconds(5)),
                             std::chrono::microseconds(250));
            changed_.wait_for(lock, pause);
          }
        } else {
          pause = std::chrono::microseconds(0);
        }
      }
      if (options_.progress && done_bytes != reported) {
        reported = done_bytes;
        options_.progress(done_bytes, total_);
      }
      for (auto& [index, result] : ready) {
        if (done) done(index, std::move(result));
      }
      if (finished) return;
    }
  }

  const private_comm& comm_;
  std::span<const std::filesystem::path> paths_;
  const hazmat::mode& mode_;
  const options& options_;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<planned_file> files_;
  std::vector<std::vector<range>> items_;
  std::size_t next_item_ = 0;
  std::deque<std::size_t> local_items_;
  std::deque<std::vector<std::byte>> local_results_;
  bool local_finished_ = false;
  bool cancelled_ = false;
  int workers_stopped_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t done_bytes_ = 0;
};

void broadcast(const private_comm& comm, std::vector<std::byte>& bytes) {
  std::uint64_t size = bytes.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, comm.get(), &request);
  wait_request(request);
  bytes.resize(static_cast<std::size_t>(size));
  MPI_Ibcast(bytes.data(), static_cast<int>(size), MPI_BYTE, 0, comm.get(), &request);
  wait_request(request);
}

}  // namespace

const std::error_category& category() noexcept {
  static const mpi_error_category instance;
  return instance;
}

void hash_files(MPI_Comm comm, std::span<const std::filesystem::path> paths, const hazmat::mode& m,
                const options& o, const result_callback& done) {
  const private_comm job(comm);
  if (job.rank() != 0) {
    serve(job, m, o);
    return;
  }
  coordinator(job, paths, m, o).run(done);
}

b3::output_reader hash_file(MPI_Comm comm, const std::filesystem::path& path, const hazmat::mode& m,
                            const options& o, std::error_code& ec) {
  // The root's outcome travels to every rank: its error, or the reader itself. A reader is a
  // plain value (the root node and a position), and every rank runs the same library.
  static_assert(std::is_trivially_copyable_v<b3::output_reader>);
  const private_comm job(comm);
  std::optional<b3::file_result> result;
  hash_files(job.get(), std::span(&path, 1), m, o,
             [&](std::size_t, b3::file_result&& r) { result.emplace(std::move(r)); });
  std::vector<std::byte> outcome;
  if (job.rank() == 0) {
    writer w;
    w.put(static_cast<std::uint8_t>(result->error ? 1 : 0));
    if (result->error) {
      put_error(w, result->error);
    } else {
      w.put_bytes(std::as_bytes(std::span(&result->output, 1)));
    }
    outcome = std::move(w.bytes());
  }
  broadcast(job, outcome);
  reader rd(outcome);
  b3::output_reader output = b3::hasher().finalize_xof();
  if (rd.get<std::uint8_t>() != 0) {
    ec = get_error(rd);
    return output;
  }
  std::memcpy(static_cast<void*>(&output), rd.take(sizeof output).data(), sizeof output);
  ec.clear();
  return output;
}

b3::output_reader hash_file(MPI_Comm comm, const std::filesystem::path& path, const hazmat::mode& m,
                            const options& o) {
  std::error_code ec;
  b3::output_reader r = hash_file(comm, path, m, o, ec);
  if (ec) throw std::filesystem::filesystem_error("fastblake::mpi::hash_file", path, ec);
  return r;
}

b3::output_reader hash_distributed(MPI_Comm comm, std::span<const std::byte> local,
                                   const hazmat::mode& m, thread_pool* pool) {
  const private_comm job(comm);
  const int ranks = job.size();
  const auto me = static_cast<std::size_t>(job.rank());
  // Where each rank's bytes lie in the input.
  std::vector<std::uint64_t> held(static_cast<std::size_t>(ranks));
  const std::uint64_t mine = local.size();
  MPI_Request request;
  MPI_Iallgather(&mine, 1, MPI_UINT64_T, held.data(), 1, MPI_UINT64_T, job.get(), &request);
  wait_request(request);
  std::vector<std::uint64_t> start(held.size() + 1, 0);
  for (std::size_t r = 0; r < held.size(); ++r) start[r + 1] = start[r] + held[r];
  const std::uint64_t total = start.back();

  // Each rank hashes the chunks that begin in its bytes: [owned(r), owned(r + 1)). The bytes
  // of its last chunk that lie on later ranks come to it; the input of one chunk goes to all.
  const auto round_up = [&](std::uint64_t at) {
    return std::min(total, (at + b3::chunk_size - 1) / b3::chunk_size * b3::chunk_size);
  };
  const auto owned_begin = [&](std::size_t r) -> std::uint64_t {
    if (total <= b3::chunk_size) return 0;
    return round_up(start[r]);
  };
  const auto owned_end = [&](std::size_t r) -> std::uint64_t {
    if (total <= b3::chunk_size) return total;
    return r + 1 == held.size() ? total : round_up(start[r + 1]);
  };
  // Bytes of rank r's that rank s needs beyond its own: [from, to) of the input.
  const auto shared_bytes = [&](std::size_t r,
                                std::size_t s) -> std::pair<std::uint64_t, std::uint64_t> {
    if (r == s) return {0, 0};
    if (total <= b3::chunk_size) return {start[r], start[r + 1]};
    const std::uint64_t from = std::max(start[r], std::max(owned_begin(s), start[s + 1]));
    const std::uint64_t to = std::min(start[r + 1], owned_end(s));
    return from < to ? std::pair{from, to} : std::pair{std::uint64_t{0}, std::uint64_t{0}};
  };
  std::vector<int> send_counts(held.size()), send_offsets(held.size()), receive_counts(held.size()),
      receive_offsets(held.size());
  int received = 0;
  for (std::size_t r = 0; r < held.size(); ++r) {
    const auto [from, to] = shared_bytes(me, r);
    send_counts[r] = static_cast<int>(to - from);
    send_offsets[r] = from < to ? static_cast<int>(from - start[me]) : 0;
    const auto [in_from, in_to] = shared_bytes(r, me);
    receive_counts[r] = static_cast<int>(in_to - in_from);
    receive_offsets[r] = received;
    received += receive_counts[r];
  }
  // A rank sends only from the head of its bytes (under a chunk) or, for one chunk in all,
  // everything it has; send_offsets index into `local`.
  std::vector<std::byte> tail(static_cast<std::size_t>(received));
  MPI_Ialltoallv(local.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, tail.data(),
                 receive_counts.data(), receive_offsets.data(), MPI_BYTE, job.get(), &request);
  wait_request(request);

  if (total <= b3::chunk_size) {
    // The received bytes are the other ranks' in rank order; this rank's own go in its place.
    std::vector<std::byte> all;
    std::size_t taken = 0;
    for (std::size_t r = 0; r < held.size(); ++r) {
      if (r == me) {
        all.insert(all.end(), local.begin(), local.end());
      } else {
        const auto n = static_cast<std::size_t>(receive_counts[r]);
        all.insert(all.end(), tail.begin() + static_cast<std::ptrdiff_t>(taken),
                   tail.begin() + static_cast<std::ptrdiff_t>(taken + n));
        taken += n;
      }
    }
    return b3::hasher(m).update(all).finalize_xof();
  }

  // This rank's subtrees: the largest that fit, in order, over its own bytes and the tail.
  thread_pool& threads = pool != nullptr ? *pool : thread_pool::default_pool();
  const std::uint64_t begin = owned_begin(me), end = owned_end(me);
  const auto bytes_of = [&](std::uint64_t from, std::uint64_t to, b3::hasher& h) {
    const std::uint64_t own_end = std::min(to, start[me + 1]);
    if (from < own_end) {
      h.update_parallel(local.subspan(static_cast<std::size_t>(from - start[me]),
                                      static_cast<std::size_t>(own_end - from)),
                        threads);
    }
    if (to > own_end) {
      const std::uint64_t tail_from = std::max(from, start[me + 1]);
      h.update(std::span(tail).subspan(static_cast<std::size_t>(tail_from - start[me + 1]),
                                       static_cast<std::size_t>(to - tail_from)));
    }
  };
  std::vector<piece> pieces;
  for (std::uint64_t at = begin; at < end;) {
    const std::uint64_t length = subtree_at(at, end, total);
    b3::hasher h(m);
    hazmat::set_input_offset(h, at);
    bytes_of(at, at + length, h);
    pieces.push_back({at, length, hazmat::finalize_non_root(h)});
    at += length;
  }

  // Every rank merges every rank's subtrees.
  static_assert(std::is_trivially_copyable_v<piece>);
  const int my_count = static_cast<int>(pieces.size() * sizeof(piece));
  std::vector<int> counts(held.size()), offsets(held.size());
  MPI_Iallgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, job.get(), &request);
  wait_request(request);
  int all_bytes = 0;
  for (std::size_t r = 0; r < held.size(); ++r) {
    offsets[r] = all_bytes;
    all_bytes += counts[r];
  }
  std::vector<piece> all(static_cast<std::size_t>(all_bytes) / sizeof(piece));
  MPI_Iallgatherv(pieces.data(), my_count, MPI_BYTE, all.data(), counts.data(), offsets.data(),
                  MPI_BYTE, job.get(), &request);
  wait_request(request);
  return merge_root(all, total, m);
}

}  // namespace fastblake::mpi
