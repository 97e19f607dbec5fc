// hash_files: many files over the pool's threads, small ones spread, large ones after them
// one at a time on every thread.
#include <functional>
#include <mutex>
#include <vector>

#include "file/ways.hpp"

namespace fastblake::internal {

void hash_files(std::span<const std::filesystem::path> paths, const file_options& options,
                std::span<std::error_code> errors, const hash_one_file& hash_one) {
  thread_pool* pool = pool_of(options);
  std::mutex progress_mutex;
  file_options per_file = options;
  if (options.progress) {
    per_file.progress = [&](std::uint64_t done, std::uint64_t total) {
      std::lock_guard lock(progress_mutex);
      return options.progress(done, total);
    };
  }
  // Every file is opened on whichever thread takes it (a divide-and-conquer over the list, so
  // that the pool balances it) and hashed there, except large ones: those are put aside and
  // hashed afterwards one at a time, each across every thread.
  constexpr std::uint64_t large = 4u << 20;
  std::vector<char> deferred(paths.size(), 0);
  const auto hash_small = [&](std::size_t i) {
    const int fd = os::open_for_reading(paths[i]);
    if (fd < 0) {
      errors[i] = errno_code();
      return;
    }
    os::file_status info;
    if (os::status(fd, info) != 0) {
      errors[i] = errno_code();
    } else if (info.regular && info.size >= large && pool != nullptr && pool->size() > 1) {
      deferred[i] = 1;
    } else {
      errors[i] = hash_one(i, fd, info, per_file, false);
    }
    os::close_file(fd);
  };
  const std::function<void(std::size_t, std::size_t)> spread = [&](std::size_t from,
                                                                   std::size_t to) {
    if (to - from <= 4 || pool == nullptr || pool->size() == 1) {
      for (std::size_t i = from; i < to; ++i) hash_small(i);
      return;
    }
    const std::size_t middle = from + (to - from) / 2;
    pool->join([&] { spread(from, middle); }, [&] { spread(middle, to); });
  };
  spread(0, paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (deferred[i] == 0) continue;
    const int fd = os::open_for_reading(paths[i]);
    os::file_status info;
    if (fd < 0) {
      errors[i] = errno_code();
      continue;
    }
    errors[i] = os::status(fd, info) != 0 ? errno_code() : hash_one(i, fd, info, per_file, true);
    os::close_file(fd);
  }
}

}  // namespace fastblake::internal
