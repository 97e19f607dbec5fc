// hash_fd: a descriptor's strategy (the options', or the automatic one's choice by its kind
// and size, O_DIRECT and the limit) and the way that carries it out; hash_path over it.
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
                        bool opened_here, const os::file_status* known) {
  source src{fd, {}, 0, false};
  if (known != nullptr) {
    src.info = *known;
  } else if (os::status(fd, src.info) != 0) {
    return errno_code();
  }
  // A stream reads whatever it is given, as GNU's tools read: a directory's read(2) says why
  // it cannot be read (EISDIR, or an I/O error where the file system has one).
  if (src.info.directory && options.strategy != file_strategy::stream) {
    return std::make_error_code(std::errc::is_a_directory);
  }
  const bool regular = src.info.regular;
  // A stream reads from the descriptor's offset with read(2): it need not know it.
  const bool keeps_offset = regular && !opened_here && options.strategy != file_strategy::stream;
  if (keeps_offset) {
    const std::int64_t at = os::offset_of(fd);
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
  if (regular && options.strategy != file_strategy::stream && src.info.size > src.offset &&
      src.info.size - src.offset > options.max_length) {
    src.info.size = src.offset + options.max_length;
  }
  // (A descriptor opened here never has O_DIRECT.)
  src.direct = !opened_here && os::reads_direct(fd);
  const bool automatic = strategy == file_strategy::automatic;
  if (automatic) {
    strategy = regular && src.info.size >= src.offset + automatic_mmap_min_size
                   ? file_strategy::mmap_parallel
                   : file_strategy::read;
  }
  // O_DIRECT reads whole blocks at block-aligned offsets, which a regular file's offset and
  // limit need not be: such a file is mapped, by the page cache, which has no such rule (and
  // gives the same bytes). Streams and other files are read in aligned whole blocks.
  if (src.direct && regular && strategy == file_strategy::read) strategy = file_strategy::mmap;
  // Nothing to map when the size is 0 (files in /proc say 0 whatever they hold): read.
  if (strategy != file_strategy::read && strategy != file_strategy::stream &&
      (!regular || src.info.size <= src.offset)) {
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
  // Positioned reads leave a descriptor's offset where it was on POSIX, not on Windows: put back.
  if (keeps_offset) os::seek_to(fd, src.offset);
  return ec;
}

std::error_code hash_path(file_sink& h, const std::filesystem::path& path,
                          const file_options& options, bool threads) {
  const int fd = os::open_for_reading(path);
  if (fd < 0) return errno_code();
  const std::error_code ec = hash_fd(h, fd, options, threads, true);
  os::close_file(fd);
  return ec;
}

}  // namespace fastblake::internal
