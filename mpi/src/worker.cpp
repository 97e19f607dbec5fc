// fastblake::mpi's worker (worker.hpp): each range of an item read with the file API and hashed
// as whole subtrees, small files one per thread of the pool.
#include "worker.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <utility>

namespace fastblake::mpi::detail {
namespace {

// ---- reading ----

// Whether the open file still has the size the job was planned with.
std::error_code check_size(int fd, std::uint64_t size) {
  struct stat info;
  if (::fstat(fd, &info) != 0) return {errno, std::generic_category()};
  if (static_cast<std::uint64_t>(info.st_size) != size) return errc::size_changed;
  return {};
}

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

}  // namespace

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

}  // namespace fastblake::mpi::detail
