// What the file code asks of the operating system, one implementation per OS family:
// os/posix/ (Linux, macOS and the other Unixes) and os/windows/ (Win32). Descriptors are the C
// runtime's int descriptors everywhere (on Windows, over the handle _get_osfhandle gives), and
// failures are errno values, set in errno as POSIX sets them (Windows' errors translated), so
// that the file code above is one code for every OS.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>

namespace fastblake::internal::os {

/// What the file code needs to know of an open file.
struct file_status {
  bool regular = false;    // a regular file (on Windows, a disk file)
  bool directory = false;  // a directory
  std::uint64_t size = 0;  // its size, for a regular file
  // Which file it is: two descriptors with the same pair are the same file (st_dev and st_ino;
  // on Windows, the volume's serial number and the file's index).
  std::uint64_t device = 0;
  std::uint64_t identity = 0;
};

/// 0, or -1 with errno set.
/// With identify, device and identity too (Windows asks for them apart, at a cost the hashing of
/// files need not pay); the status of a path always has them.
int status(int fd, file_status& out, bool identify = false) noexcept;
/// The status of the file at path (following links), as status().
int status(const std::filesystem::path& path, file_status& out) noexcept;

/// Reads until the buffer is full or the input ends, retrying where interrupted: from *position
/// when position is set (advancing it; on POSIX the descriptor's offset stays where it was, on
/// Windows it moves, and the file code puts it back with seek_to), else from the descriptor's
/// offset. Always the bytes as they are (no text-mode translation). Returns the bytes read, or
/// -1 with errno set.
std::int64_t read_fully(int fd, std::byte* buffer, std::size_t size,
                        std::uint64_t* position) noexcept;

/// The descriptor's offset, or -1 (not seekable).
std::int64_t offset_of(int fd) noexcept;
/// Moves the descriptor's offset to `offset`; false where it cannot.
bool seek_to(int fd, std::uint64_t offset) noexcept;
/// Whether the descriptor reads around the cache (Linux's O_DIRECT), whose reads must then be
/// whole blocks into aligned memory.
bool reads_direct(int fd) noexcept;

/// Opens path read-only, in binary mode, not inherited by child processes and never onto
/// descriptors 0, 1 or 2 (a program that closed one still writes to or reads from it); -1 with
/// errno set on failure. On Windows the name goes through the wide API: any Unicode name.
int open_for_reading(const std::filesystem::path& path) noexcept;
void close_file(int fd) noexcept;

/// Writes all of the bytes at file offset `position` (as read_fully reads: on Windows the
/// descriptor's offset moves); false with errno set.
bool write_fully(int fd, const std::byte* bytes, std::size_t size, std::uint64_t position) noexcept;

/// The path named by a UTF-8 string, as the C API takes names: on Windows, where a narrow path
/// would be read in the ANSI code page, converted to UTF-16 (elsewhere the bytes as they are).
inline std::filesystem::path path_from_utf8(const char* name) {
  return std::filesystem::path(std::u8string(reinterpret_cast<const char8_t*>(name)));
}
/// The path's name for messages: its bytes on POSIX (whatever their encoding), UTF-8 on Windows.
inline std::string name_of(const std::filesystem::path& path) {
#ifdef _WIN32
  const std::u8string name = path.u8string();
  return std::string(name.begin(), name.end());
#else
  return path.native();
#endif
}

/// Mapped views start at multiples of this (the page size; on Windows the allocation
/// granularity, 64 KiB).
std::uint64_t mapping_alignment() noexcept;

/// A read-only mapping of `size` bytes of a file from offset `from` (a multiple of
/// mapping_alignment()), read a window at a time, with its fault guard: while it lives, a load
/// from a window that faults because the file was cut under it (SIGBUS on POSIX,
/// EXCEPTION_IN_PAGE_ERROR or, under Wine, an access violation on Windows) reads zeros from
/// there to the view's end instead of ending the process, and faulted() says so; the caller then
/// fails with file_errc::truncated. Faults elsewhere go to whatever handled them before.
///
/// On POSIX the whole range is one mapping, and a window is a part of it whose pages release()
/// drops. On Windows each window is a view of its own, which release() unmaps: no call there
/// both takes a mapped file's pages out of a process and does so under Wine too (VirtualUnlock
/// does on Windows; under Wine it does nothing, and hashing a cached 1 GiB file in one view
/// held up to 954 MiB of it resident, then unmapped it all at once).
class mapped_file {
 public:
  mapped_file() = default;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file();

  /// Maps the range (on Windows, makes the mapping object whose views the windows are) and
  /// guards it. Errors: no_such_device where the file cannot be mapped or the mapping guarded
  /// (no address space, no memory for the guard, a file system that cannot map): the caller
  /// reads it instead; file_errc::truncated where the file is already shorter than
  /// from + size; others from the system.
  std::error_code map(int fd, std::uint64_t from, std::uint64_t size) noexcept;

  /// The bytes at file offsets [at, at + size), inside the mapped range, readable until
  /// release(); one window at a time. `reach` (at least at + size): how far ahead read_ahead
  /// may be asked to read while the window lives. nullptr where no view can be made (on
  /// Windows: no address space or memory for it, or for its guard).
  const std::byte* window(std::uint64_t at, std::uint64_t size, std::uint64_t reach) noexcept;
  bool faulted() const noexcept;

  /// Tells the system the range is read from start to end.
  void read_sequentially() noexcept;
  /// Asks the system to start reading the parts of file offsets [from, to) that are not in its
  /// cache, ahead of the page faults of the threads hashing the windows (each part once). On
  /// Windows, where only a view can be asked for, as far as the current window's reach.
  void read_ahead(std::uint64_t from, std::uint64_t to) noexcept;
  /// The window [from, from + size) has been hashed: its pages may leave the process's resident
  /// set (they stay in the system's cache).
  void release(const std::byte* from, std::size_t size) noexcept;

  struct guard_slot;

 private:
  int fd_ = -1;
  const std::byte* data_ = nullptr;  // file offset from_ (on Windows: the view's start)
  std::uint64_t from_ = 0;
  std::uint64_t size_ = 0;
  std::uint64_t requested_ = 0;  // read_ahead has asked for everything before this file offset
  guard_slot* guard_ = nullptr;  // (on Windows: the view's)
#ifdef _WIN32
  void* mapping_ = nullptr;      // the file mapping object
  std::uint64_t view_from_ = 0;  // the file offset of data_
  std::uint64_t view_size_ = 0;  // 0 between windows
  bool faulted_ = false;         // an earlier window faulted
#endif
};

}  // namespace fastblake::internal::os
