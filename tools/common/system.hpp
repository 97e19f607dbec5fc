// What the tools ask of the operating system, answered once per OS family: posix/system.cpp
// (Linux, macOS, the BSDs) and windows/system.cpp (Win32 under the C runtime's descriptors),
// CMake compiling one. Nothing else in tools/ includes an OS header (include_layers checks it).
// Names are UTF-8 everywhere; errors are errno values, as the library's file API gives them.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tools {

inline constexpr int standard_input = 0;
inline constexpr int standard_output = 1;
inline constexpr int standard_error = 2;

/// Whether a backslash separates a name's folders, as on Windows, where the official b3sum
/// prints it as '/' and refuses it in check files.
#ifdef _WIN32
inline constexpr bool backslash_separates_folders = true;
#else
inline constexpr bool backslash_separates_folders = false;
#endif

/// Whether files may be read in text mode (its line ends translated), as on Windows, where GNU's
/// b2sum reads in binary mode by default (and marks its lines '*') unless reading a console.
#ifdef _WIN32
inline constexpr bool files_have_text_mode = true;
#else
inline constexpr bool files_have_text_mode = false;
#endif

/// The longest name, in bytes with its NUL, that can be opened: a longer one is refused, not held.
#ifdef _WIN32
inline constexpr std::size_t longest_name = 3 * 32767 + 1;  // a \\?\ name's UTF-16 units, as UTF-8
#else
inline constexpr std::size_t longest_name = PATH_MAX;
#endif

/// A name as the library's file API takes it: its bytes on POSIX; on Windows, read as UTF-8 (a
/// path made from a std::string would read it in the ANSI code page).
std::filesystem::path path_of(const std::string& name);

/// Opens a file to read, never onto descriptors 0, 1 or 2 (when they are closed), so that no
/// file takes the place of a standard stream; not inherited by child processes, never in text
/// mode. -1 and errno on failure.
int open_for_reading(const std::string& path);
/// Opens a file to read and write as open_for_reading does, creating it (mode 0666 less the
/// umask) where it does not exist; an existing file is not emptied.
int open_for_update(const std::string& path);
void close_descriptor(int fd);

/// Reads up to size bytes (retrying where a signal interrupts): the count, 0 at the end, or -1
/// and errno.
std::ptrdiff_t read_some(int fd, void* into, std::size_t size);
/// Writes all of bytes to fd, retrying where a signal interrupts; false and errno on an error
/// (EPIPE where the reader of a pipe went away). A Windows console is given the text as
/// UTF-16, so that it shows every character whatever its code page. Allocates nothing: it may
/// write the last words of a process whose memory ran out.
bool write_all(int fd, std::string_view bytes);

/// Makes the standard streams what the tools need: any of descriptors 0, 1 and 2 that is closed
/// opened onto the null device, as Rust's runtime does at startup, and all three binary (no
/// line end translated, no byte ending a read early) where the C runtime has a text mode.
void prepare_standard_streams();
/// Whether fd is closed (GNU's tools report a standard input that was).
bool descriptor_closed(int fd);
/// Whether fd is the null device, where nobody reads what is written.
bool is_null_device(int fd);
/// Whether fd is a terminal (a console on Windows; the null device is none).
bool is_terminal(int fd);
/// The terminal's width in columns, 80 where it cannot be known or is under 20.
int terminal_columns(int fd);

enum class file_kind { regular, directory, link, other };

struct file_status {
  file_kind kind = file_kind::other;
  std::uint64_t size = 0;
  // Together, what tells one file from another through any of its names (identity 0: not
  // known, which no other file is the same as).
  std::uint64_t device = 0;
  std::uint64_t identity = 0;
  bool same_file_as(const file_status& other) const {
    return identity != 0 && device == other.device && identity == other.identity;
  }
};

/// The status of the file open as fd; false and errno on failure.
bool status_of(int fd, file_status& status);
/// The status of the file at path, of a symbolic link itself unless follow_links (on Windows,
/// with device and identity for a directory only: they cost a query of the volume there); false
/// and errno on failure.
bool status_of(const std::string& path, bool follow_links, file_status& status);
/// Whether fd can be read at any offset (a pipe, a FIFO or a terminal cannot).
bool seekable(int fd);
/// Cuts or extends the file open as fd to size bytes; false and errno on failure.
bool resize_file(int fd, std::uint64_t size);
/// An entry of a directory: its name, and its kind as the listing says it (a walk then asks no
/// more of a regular file: a call to the system a file, which under Wine is a round trip to its
/// server); nullopt where the listing does not say (status_of does).
struct directory_entry {
  std::string name;
  std::optional<file_kind> kind;
  friend bool operator<(const directory_entry& a, const directory_entry& b) {
    return a.name < b.name;
  }
};

/// The entries of a directory, "." and ".." left out, in the order the system gives: 0, or the
/// errno of a directory that cannot be listed.
int list_directory(const std::string& path, std::vector<directory_entry>& entries);

/// How many CPUs this process may run on (its affinity), 0 where that cannot be known.
std::size_t cpus_allowed();

/// Makes a write to a pipe whose reader went away an EPIPE error, not a signal that kills.
void ignore_broken_pipes();

/// Takes the locale from the environment, as a C program's setlocale(LC_ALL, "") does; whether
/// its character set is UTF-8 (on Windows, where the command line and names are read as UTF-8
/// whatever the code page, always).
bool use_environment_locale();
/// Whether the locale prints the character at s[i] as it is, as gnulib's quotearg decides: its
/// bytes [i, i + n) are one valid character that is printable. When it is not, all n bytes are
/// escaped: one for an invalid byte, the rest of s for an incomplete character.
bool printable_character(std::string_view s, std::size_t i, std::size_t& n);

/// The name a program's messages give it, as GNU's: argv[0] (fallback where it has none). On
/// Windows, its file's name less ".exe": there argv[0] is what was typed, or the whole path
/// where a launcher (Wine, a shortcut) starts the program. A view of either: it allocates
/// nothing, as it is asked before the out-of-memory message is ready.
std::string_view program_name(const char* argv0, const char* fallback);

/// The C library's words for an errno value, as GNU's tools print them: on Linux glibc's,
/// whatever C library the tool was linked with (musl words many otherwise: a static build says
/// what a distribution's says); elsewhere strerror's.
std::string os_error_text(int error);

/// An OS error as Rust's std::io::Error prints one, as the official tools word it: on POSIX,
/// "<os_error_text> (os error N)"; on Windows, the Win32 error the errno value stands for, in
/// Windows' words, and that error's number.
std::string rust_os_error(int error);

}  // namespace tools
