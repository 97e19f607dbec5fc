// The tools' OS needs on POSIX systems (system.hpp).
#include "../system.hpp"

#ifdef __linux__
#include "error_words.hpp"
#endif

#include <dirent.h>
#include <fcntl.h>
#include <langinfo.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>

namespace tools {
namespace {

int open_above_standard(const char* path, int flags) {
  int fd;
  do {
    fd = ::open(path, flags | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 || fd > standard_error) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, standard_error + 1);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return moved;
}

file_status status_from(const struct stat& info) {
  file_status status;
  status.kind = S_ISREG(info.st_mode)   ? file_kind::regular
                : S_ISDIR(info.st_mode) ? file_kind::directory
                : S_ISLNK(info.st_mode) ? file_kind::link
                                        : file_kind::other;
  status.size = static_cast<std::uint64_t>(info.st_size);
  status.device = static_cast<std::uint64_t>(info.st_dev);
  status.identity = static_cast<std::uint64_t>(info.st_ino);
  return status;
}

}  // namespace

std::filesystem::path path_of(const std::string& name) { return name; }

int open_for_reading(const std::string& path) {
  return open_above_standard(path.c_str(), O_RDONLY);
}

int open_for_update(const std::string& path) {
  return open_above_standard(path.c_str(), O_RDWR | O_CREAT);
}

void close_descriptor(int fd) { ::close(fd); }

std::ptrdiff_t read_some(int fd, void* into, std::size_t size) {
  ssize_t n;
  do {
    n = ::read(fd, into, size);
  } while (n < 0 && errno == EINTR);
  return n;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void prepare_standard_streams() {
  for (int fd = standard_input; fd <= standard_error; ++fd) {
    if (!descriptor_closed(fd)) continue;
    // open returns the lowest free descriptor: this one, since the lower ones are open.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0 && null != fd) ::close(null);
  }
}

bool descriptor_closed(int fd) { return ::fcntl(fd, F_GETFD) < 0 && errno == EBADF; }

bool is_null_device(int fd) {
  struct stat target;
  struct stat null;
  return ::fstat(fd, &target) == 0 && S_ISCHR(target.st_mode) && ::stat("/dev/null", &null) == 0 &&
         S_ISCHR(null.st_mode) && target.st_rdev == null.st_rdev;
}

bool is_terminal(int fd) { return ::isatty(fd) != 0; }

int terminal_columns(int fd) {
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) return size.ws_col;
  return 80;
}

bool status_of(int fd, file_status& status) {
  struct stat info;
  if (::fstat(fd, &info) != 0) return false;
  status = status_from(info);
  return true;
}

bool status_of(const std::string& path, bool follow_links, file_status& status) {
  struct stat info;
  if ((follow_links ? ::stat(path.c_str(), &info) : ::lstat(path.c_str(), &info)) != 0) {
    return false;
  }
  status = status_from(info);
  return true;
}

bool seekable(int fd) { return ::lseek(fd, 0, SEEK_CUR) >= 0; }

bool resize_file(int fd, std::uint64_t size) {
  return ::ftruncate(fd, static_cast<off_t>(size)) == 0;
}

namespace {

std::optional<file_kind> kind_listed(const dirent& entry) {
#ifdef DT_UNKNOWN
  switch (entry.d_type) {
    case DT_REG:
      return file_kind::regular;
    case DT_DIR:
      return file_kind::directory;
    case DT_LNK:
      return file_kind::link;
    case DT_UNKNOWN:  // (some file systems never say)
      return std::nullopt;
    default:
      return file_kind::other;
  }
#else
  return std::nullopt;
#endif
}

}  // namespace

int list_directory(const std::string& path, std::vector<directory_entry>& entries) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return errno;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") entries.push_back({std::string(name), kind_listed(*entry)});
    errno = 0;
  }
  const int read_error = errno;
  ::closedir(dir);
  return read_error;
}

std::size_t cpus_allowed() {
#ifdef __linux__
  cpu_set_t cpus;
  if (::sched_getaffinity(0, sizeof cpus, &cpus) == 0)
    return static_cast<std::size_t>(CPU_COUNT(&cpus));
#endif
  return 0;  // (macOS has no affinity to ask for)
}

void ignore_broken_pipes() { std::signal(SIGPIPE, SIG_IGN); }

bool use_environment_locale() {
  std::setlocale(LC_ALL, "");
  return std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

bool printable_character(std::string_view s, std::size_t i, std::size_t& n) {
  n = 1;
  const auto c = static_cast<unsigned char>(s[i]);
  if (MB_CUR_MAX == 1) return c >= 0x20 && c < 0x7f;
  std::mbstate_t state{};
  wchar_t w;
  const std::size_t r = std::mbrtowc(&w, s.data() + i, s.size() - i, &state);
  if (r == static_cast<std::size_t>(-1) || r == 0) return false;
  if (r == static_cast<std::size_t>(-2)) {
    n = s.size() - i;
    return false;
  }
  n = r;
  return std::iswprint(static_cast<std::wint_t>(w)) != 0;
}

std::string_view program_name(const char* argv0, const char* fallback) {
  return argv0 != nullptr && argv0[0] != '\0' ? argv0 : fallback;
}

std::string os_error_text(int error) {
#ifdef __linux__
  if (const char* words = glibc_error_words(error)) return words;
  return "Unknown error " + std::to_string(error);
#else
  return std::strerror(error);
#endif
}

std::string rust_os_error(int error) {
  return os_error_text(error) + " (os error " + std::to_string(error) + ")";
}

}  // namespace tools
