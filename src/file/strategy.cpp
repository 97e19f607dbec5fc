// hash_fd: a descriptor's strategy (the options', or the automatic one's choice by its kind
// and size, O_DIRECT and the limit) and the way that carries it out; hash_path over it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>

#include "file/ways.hpp"

namespace fastblake::internal {

thread_pool* pool_of(const file_options& options) noexcept {
  if (options.pool != nullptr) return options.pool;
  try {
    return &thread_pool::default_pool();
  } catch (...) {
    return nullptr;
  }
}

std::error_code hash_fd(file_sink& h, int fd, const file_options& options, bool threads,
                        bool opened_here, const struct stat* known) {
  source src{fd, {}, 0, false};
  if (known != nullptr) {
    src.info = *known;
  } else if (fstat(fd, &src.info) != 0) {
    return errno_code();
  }
  // A stream reads whatever it is given, as GNU's tools read: a directory's read(2) says why
  // it cannot be read (EISDIR, or an I/O error where the file system has one).
  if (S_ISDIR(src.info.st_mode) && options.strategy != file_strategy::stream) {
    return std::make_error_code(std::errc::is_a_directory);
  }
  const bool regular = S_ISREG(src.info.st_mode);
  // A stream reads from the descriptor's offset with read(2): it need not know it.
  if (regular && !opened_here && options.strategy != file_strategy::stream) {
    const off_t at = lseek(fd, 0, SEEK_CUR);
    src.offset = at > 0 ? static_cast<std::uint64_t>(at) : 0;
  }
  file_strategy strategy = options.strategy;
  if (strategy > file_strategy::stream || strategy < file_strategy::automatic) {
    return std::make_error_code(std::errc::invalid_argument);
  }
  // A limit ends a regular file early: hashed as if it ended there, which makes bytes past the
  // limit irrelevant, and a file cut short before it still truncated. (A size of 0 would mean
  // "read to the end": a limit of 0 hashes nothing here.)
  if (regular && options.strategy != file_strategy::stream && options.max_length == 0) {
    return report(options, 0, 0) ? std::error_code()
                                 : std::make_error_code(std::errc::operation_canceled);
  }
  if (regular && options.strategy != file_strategy::stream &&
      static_cast<std::uint64_t>(src.info.st_size) > src.offset &&
      static_cast<std::uint64_t>(src.info.st_size) - src.offset > options.max_length) {
    src.info.st_size = static_cast<off_t>(src.offset + options.max_length);
  }
#ifdef O_DIRECT
  // (A descriptor opened here never has O_DIRECT.)
  src.direct = !opened_here && (fcntl(fd, F_GETFL) & O_DIRECT) != 0;
#endif
  const bool automatic = strategy == file_strategy::automatic;
  if (automatic) {
    strategy = regular && static_cast<std::uint64_t>(src.info.st_size) >=
                              src.offset + automatic_mmap_min_size
                   ? file_strategy::mmap_parallel
                   : file_strategy::read;
  }
  // O_DIRECT reads whole blocks at block-aligned offsets, which a regular file's offset and
  // limit need not be: such a file is mapped, by the page cache, which has no such rule (and
  // gives the same bytes). Streams and other files are read in aligned whole blocks.
  if (src.direct && regular && strategy == file_strategy::read) strategy = file_strategy::mmap;
  // Nothing to map when the size is 0 (files in /proc say 0 whatever they hold): read.
  if (strategy != file_strategy::read && strategy != file_strategy::stream &&
      (!regular || static_cast<std::uint64_t>(src.info.st_size) <= src.offset)) {
    strategy = file_strategy::read;
  }
  if (strategy == file_strategy::mmap_parallel && !threads) strategy = file_strategy::mmap;
  std::error_code ec;
  try {
    if (strategy == file_strategy::read || strategy == file_strategy::stream) {
      ec = hash_by_reading(h, src, options, threads);
    } else {
      ec = hash_by_mapping(h, src, options, strategy == file_strategy::mmap_parallel,
                           automatic && threads, automatic && threads && !src.direct);
      // A file system that cannot map files can still be read (and so can a file whose
      // mapping could not be guarded).
      if (ec == std::errc::no_such_device) ec = hash_by_reading(h, src, options, threads);
    }
  } catch (const std::bad_alloc&) {
    ec = std::make_error_code(std::errc::not_enough_memory);
  } catch (const std::system_error& e) {
    ec = e.code();
  } catch (...) {
    ec = std::make_error_code(std::errc::io_error);
  }
  return ec;
}

// Never onto descriptors 0, 1 or 2, where a program closed them: the file would take the
// place of a standard stream the program still writes to or reads from.
int open_for_reading(const std::filesystem::path& path) noexcept {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd >= 0 && fd <= STDERR_FILENO) {
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fd = moved;
  }
  return fd;
}

std::error_code hash_path(file_sink& h, const std::filesystem::path& path,
                          const file_options& options, bool threads) {
  const int fd = open_for_reading(path);
  if (fd < 0) return errno_code();
  const std::error_code ec = hash_fd(h, fd, options, threads, true);
  ::close(fd);
  return ec;
}

}  // namespace fastblake::internal
