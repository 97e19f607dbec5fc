// The tools' OS needs on Windows (system.hpp): the C runtime's descriptors over Win32 handles,
// names through the wide API (UTF-8 converted, the \\?\ form for long paths), consoles given
// UTF-16, and Windows' own words for its errors.
#include "../system.hpp"

#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <windows.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <climits>
#include <clocale>
#include <cstring>
#include <iterator>

namespace tools {
namespace {

std::wstring wide(std::string_view utf8) {
  if (utf8.empty()) return {};
  const int size = static_cast<int>(std::min<std::size_t>(utf8.size(), INT_MAX));
  std::wstring text(
      static_cast<std::size_t>(::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), size, nullptr, 0)),
      L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), size, text.data(), static_cast<int>(text.size()));
  return text;
}

std::string utf8_of(std::wstring_view text) {
  if (text.empty()) return {};
  const int size = static_cast<int>(text.size());
  std::string bytes(static_cast<std::size_t>(::WideCharToMultiByte(CP_UTF8, 0, text.data(), size,
                                                                   nullptr, 0, nullptr, nullptr)),
                    '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, text.data(), size, bytes.data(), static_cast<int>(bytes.size()),
                        nullptr, nullptr);
  return bytes;
}

// The name to give the wide API: as it is, or from near MAX_PATH characters on the \\?\ form
// long names need (absolute, with backslashes, "." and ".." resolved).
std::wstring wide_path(const std::string& path) {
  std::wstring name = wide(path);
  if (name.size() < MAX_PATH - 12 || name.starts_with(L"\\\\?\\")) return name;
  std::wstring full(::GetFullPathNameW(name.c_str(), 0, nullptr, nullptr), L'\0');
  const DWORD n =
      ::GetFullPathNameW(name.c_str(), static_cast<DWORD>(full.size()), full.data(), nullptr);
  if (n == 0 || n >= full.size()) return name;
  full.resize(n);
  return full.starts_with(L"\\\\") ? L"\\\\?\\UNC\\" + full.substr(2) : L"\\\\?\\" + full;
}

struct code_points {
  char32_t first, last;
};
// From U+0080, what glibc's C.UTF-8 does not print (unprintable.py writes the file).
constexpr code_points unprintable_ranges[] = {
#include "unprintable.inc"
};

// The errno value of the Win32 errors that naming a file meets.
int errno_of(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_PATHNAME:
      return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
      return EACCES;
    case ERROR_DIRECTORY:
      return ENOTDIR;
    case ERROR_FILENAME_EXCED_RANGE:
      return ENAMETOOLONG;
    case ERROR_INVALID_HANDLE:
      return EBADF;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
      return ENOMEM;
    case ERROR_BROKEN_PIPE:
    case ERROR_NO_DATA:
    case ERROR_PIPE_NOT_CONNECTED:  // (Wine's word for a pipe whose reader has gone)
      return EPIPE;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    default:
      return EIO;
  }
}

// The Win32 error an errno value stands for, as Rust reports it there (0: none).
DWORD win32_error_of(int error) {
  switch (error) {
    case ENOENT:
      return ERROR_FILE_NOT_FOUND;
    case EACCES:
      return ERROR_ACCESS_DENIED;
    case EISDIR:
      return ERROR_ACCESS_DENIED;  // what Rust's File::open of a directory meets there
    case ENOTDIR:
      return ERROR_DIRECTORY;
    case ENAMETOOLONG:
      return ERROR_FILENAME_EXCED_RANGE;
    case EBADF:
      return ERROR_INVALID_HANDLE;
    case ENOMEM:
      return ERROR_NOT_ENOUGH_MEMORY;
    case EPIPE:
      return ERROR_NO_DATA;
    case ENOSPC:
      return ERROR_DISK_FULL;
    case EINVAL:
      return ERROR_INVALID_PARAMETER;
    case EIO:
      return ERROR_IO_DEVICE;
    case ELOOP:
      return ERROR_CANT_RESOLVE_FILENAME;  // a cycle of links (the walk's, or the system's)
    default:
      return 0;
  }
}

HANDLE handle_of(int fd) { return reinterpret_cast<HANDLE>(::_get_osfhandle(fd)); }

bool is_console(HANDLE h) {
  DWORD mode;
  return ::GetConsoleMode(h, &mode) != 0;
}

int open_above_standard(const std::string& path, int flags) {
  int fd =
      ::_wopen(wide_path(path).c_str(), flags | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
  // The C runtime has no errno for a name Windows refuses ('*', '?', control characters):
  // EINVAL. It is a name of nothing, as on POSIX, and as the library's own opening says.
  if (fd < 0 && errno == EINVAL &&
      (::GetLastError() == ERROR_INVALID_NAME || ::GetLastError() == ERROR_BAD_PATHNAME)) {
    errno = ENOENT;
  }
  if (fd < 0 && errno == EACCES) {
    // The C runtime cannot open a directory: say so, as a POSIX open for reading would.
    const DWORD attributes = ::GetFileAttributesW(wide_path(path).c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
      errno = EISDIR;
    }
  }
  // Descriptors are handed out lowest first: one that took a closed standard stream's place is
  // copied above them, the copies below closed again.
  int below[standard_error + 1];
  int count = 0;
  while (fd >= 0 && fd <= standard_error) {
    below[count++] = fd;
    fd = ::_dup(fd);
  }
  const int saved = errno;
  for (int k = 0; k < count; ++k) ::_close(below[k]);
  errno = saved;
  return fd;
}

// The kind and size of what h holds, and with identify its device and identity (Windows asks
// for those apart: GetFileInformationByHandle also reads the volume, half a millisecond a file
// under Wine, which refuses it for a standard handle over a Unix file, whose identity is then
// unknown). With links_too, a symbolic link or junction is a link.
bool status_of_handle(HANDLE h, bool links_too, bool identify, file_status& status) {
  status = {};
  if (::GetFileType(h) != FILE_TYPE_DISK) {
    if (::GetLastError() != NO_ERROR && ::GetFileType(h) == FILE_TYPE_UNKNOWN) {
      errno = EBADF;
      return false;
    }
    return true;  // a pipe, a console, the null device
  }
  BY_HANDLE_FILE_INFORMATION info;
  FILE_STANDARD_INFO standard;
  if (identify && ::GetFileInformationByHandle(h, &info) != 0) {
    status.kind = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0 ? file_kind::directory
                                                                          : file_kind::regular;
    status.size = std::uint64_t{info.nFileSizeHigh} << 32 | info.nFileSizeLow;
    status.device = info.dwVolumeSerialNumber;
    status.identity = std::uint64_t{info.nFileIndexHigh} << 32 | info.nFileIndexLow;
  } else if (::GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof standard) != 0) {
    status.kind = standard.Directory != FALSE ? file_kind::directory : file_kind::regular;
    status.size = static_cast<std::uint64_t>(standard.EndOfFile.QuadPart);
  } else {
    errno = errno_of(::GetLastError());
    return false;
  }
  // Symbolic links and junctions are links; other reparse points (deduplicated or cloud
  // files) are what they hold.
  FILE_ATTRIBUTE_TAG_INFO tag;
  if (links_too && ::GetFileInformationByHandleEx(h, FileAttributeTagInfo, &tag, sizeof tag) != 0 &&
      (tag.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0 &&
      (tag.ReparseTag == IO_REPARSE_TAG_SYMLINK || tag.ReparseTag == IO_REPARSE_TAG_MOUNT_POINT)) {
    status.kind = file_kind::link;
  }
  return true;
}

}  // namespace

std::filesystem::path path_of(const std::string& name) { return wide(name); }

int open_for_reading(const std::string& path) { return open_above_standard(path, _O_RDONLY); }

int open_for_update(const std::string& path) {
  return open_above_standard(path, _O_RDWR | _O_CREAT);
}

void close_descriptor(int fd) { ::_close(fd); }

std::ptrdiff_t read_some(int fd, void* into, std::size_t size) {
  return ::_read(fd, into, static_cast<unsigned>(std::min<std::size_t>(size, INT_MAX)));
}

bool write_all(int fd, std::string_view bytes) {
  const HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return false;
  }
  if (is_console(h)) {
    // A piece at a time through a buffer here, each ending at a character's end.
    wchar_t text[4096];
    while (!bytes.empty()) {
      std::size_t n = std::min<std::size_t>(bytes.size(), std::size(text));
      while (n < bytes.size() && n > std::size(text) - 4 &&
             (static_cast<unsigned char>(bytes[n]) & 0xc0) == 0x80) {
        --n;
      }
      const int units = ::MultiByteToWideChar(CP_UTF8, 0, bytes.data(), static_cast<int>(n), text,
                                              static_cast<int>(std::size(text)));
      for (int done = 0; done < units;) {
        DWORD written = 0;
        if (::WriteConsoleW(h, text + done, static_cast<DWORD>(units - done), &written, nullptr) ==
            0) {
          errno = errno_of(::GetLastError());
          return false;
        }
        done += static_cast<int>(written);
      }
      bytes.remove_prefix(n);
    }
    return true;
  }
  while (!bytes.empty()) {
    DWORD written = 0;
    const auto n = static_cast<DWORD>(std::min<std::size_t>(bytes.size(), 1u << 30));
    if (::WriteFile(h, bytes.data(), n, &written, nullptr) == 0) {
      errno = errno_of(::GetLastError());
      return false;
    }
    bytes.remove_prefix(written);
  }
  return true;
}

void prepare_standard_streams() {
  for (int fd = standard_input; fd <= standard_error; ++fd) {
    // (-2: a standard stream the process was started without.)
    const intptr_t h = ::_get_osfhandle(fd);
    if (h == -1 || h == -2) {
      const int null = ::_open("NUL", _O_RDWR | _O_BINARY);
      if (null >= 0 && null != fd) {
        ::_dup2(null, fd);
        ::_close(null);
      }
    }
    ::_setmode(fd, _O_BINARY);
  }
}

bool descriptor_closed(int fd) { return ::_get_osfhandle(fd) == -1; }

bool is_null_device(int fd) {
  const HANDLE h = handle_of(fd);
  return ::GetFileType(h) == FILE_TYPE_CHAR && !is_console(h);
}

bool is_terminal(int fd) { return is_console(handle_of(fd)); }

int terminal_columns(int fd) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (::GetConsoleScreenBufferInfo(handle_of(fd), &info) != 0) {
    const int columns = info.srWindow.Right - info.srWindow.Left + 1;
    if (columns >= 20) return columns;
  }
  return 80;
}

bool status_of(int fd, file_status& status) {
  const HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return false;
  }
  return status_of_handle(h, false, true, status);
}

bool status_of(const std::string& path, bool follow_links, file_status& status) {
  const HANDLE h = ::CreateFileW(
      wide_path(path).c_str(), FILE_READ_ATTRIBUTES,
      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
      FILE_FLAG_BACKUP_SEMANTICS | (follow_links ? 0 : FILE_FLAG_OPEN_REPARSE_POINT), nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    errno = errno_of(::GetLastError());
    return false;
  }
  // Identified where a walk needs it, a directory (for its cycles).
  bool known = status_of_handle(h, !follow_links, false, status);
  if (known && status.kind == file_kind::directory)
    known = status_of_handle(h, false, true, status);
  ::CloseHandle(h);
  return known;
}

bool seekable(int fd) { return ::GetFileType(handle_of(fd)) == FILE_TYPE_DISK; }

bool resize_file(int fd, std::uint64_t size) {
  const errno_t error = ::_chsize_s(fd, static_cast<long long>(size));
  if (error != 0) errno = error;
  return error == 0;
}

int list_directory(const std::string& path, std::vector<directory_entry>& entries) {
  WIN32_FIND_DATAW entry;
  const std::string pattern =
      path.ends_with('/') || path.ends_with('\\') ? path + "*" : path + "\\*";
  const HANDLE find = ::FindFirstFileExW(wide_path(pattern).c_str(), FindExInfoBasic, &entry,
                                         FindExSearchNameMatch, nullptr, FIND_FIRST_EX_LARGE_FETCH);
  if (find == INVALID_HANDLE_VALUE) {
    const DWORD error = ::GetLastError();
    return error == ERROR_FILE_NOT_FOUND ? 0 : errno_of(error);
  }
  do {
    const std::wstring_view name = entry.cFileName;
    if (name == L"." || name == L"..") continue;
    // Symbolic links and junctions are links (their tag is dwReserved0), as status_of says.
    const bool link = (entry.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0 &&
                      (entry.dwReserved0 == IO_REPARSE_TAG_SYMLINK ||
                       entry.dwReserved0 == IO_REPARSE_TAG_MOUNT_POINT);
    entries.push_back({utf8_of(name), link ? file_kind::link
                                      : (entry.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0
                                          ? file_kind::directory
                                          : file_kind::regular});
  } while (::FindNextFileW(find, &entry) != 0);
  const DWORD error = ::GetLastError();
  ::FindClose(find);
  return error == ERROR_NO_MORE_FILES ? 0 : errno_of(error);
}

std::size_t cpus_allowed() {
  DWORD_PTR process = 0;
  DWORD_PTR system = 0;
  if (::GetProcessAffinityMask(::GetCurrentProcess(), &process, &system) == 0) return 0;
  return static_cast<std::size_t>(std::popcount(static_cast<std::uint64_t>(process)));
}

void ignore_broken_pipes() {}  // (a write to a closed pipe fails with ERROR_NO_DATA: EPIPE)

bool use_environment_locale() {
  std::setlocale(LC_ALL, "");
  return true;
}

bool printable_character(std::string_view s, std::size_t i, std::size_t& n) {
  const auto lead = static_cast<unsigned char>(s[i]);
  n = 1;
  if (lead < 0x80) return lead >= 0x20 && lead < 0x7f;
  // UTF-8 by hand: the C runtime has no UTF-8 locale to ask.
  const std::size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (length == 0 || lead > 0xf4) return false;
  char32_t c = lead & (0x7f >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if (i + k == s.size()) {
      n = s.size() - i;
      return false;
    }
    const auto next = static_cast<unsigned char>(s[i + k]);
    if ((next & 0xc0) != 0x80) return false;
    c = c << 6 | (next & 0x3f);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < smallest[length] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000)) return false;
  n = length;
  // What prints is glibc's C.UTF-8 class, as on Linux (the C runtime's tables differ by version).
  const auto after =
      std::upper_bound(std::begin(unprintable_ranges), std::end(unprintable_ranges), c,
                       [](char32_t x, const code_points& r) { return x < r.first; });
  return after == std::begin(unprintable_ranges) || c > std::prev(after)->last;
}

std::string_view program_name(const char* argv0, const char* fallback) {
  if (argv0 == nullptr || argv0[0] == '\0') return fallback;
  std::string_view name = argv0;
  name.remove_prefix(name.find_last_of("\\/:") + 1);  // npos + 1: the whole name
  constexpr std::string_view exe = ".exe";
  if (name.size() > exe.size() &&
      std::equal(exe.begin(), exe.end(), name.end() - exe.size(),
                 [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); })) {
    name.remove_suffix(exe.size());
  }
  return name.empty() ? fallback : name;
}

std::string os_error_text(int error) { return std::strerror(error); }

std::string rust_os_error(int error) {
  const DWORD code = win32_error_of(error);
  if (code == 0)
    return std::string(std::strerror(error)) + " (os error " + std::to_string(error) + ")";
  wchar_t* text = nullptr;
  const DWORD n = ::FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string message = n > 0 ? utf8_of(std::wstring_view(text, n)) : std::strerror(error);
  ::LocalFree(text);
  while (!message.empty() && std::strchr(" \t\r\n", message.back()) != nullptr) message.pop_back();
  return message + " (os error " + std::to_string(code) + ")";
}

}  // namespace tools
