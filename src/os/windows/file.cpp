// Descriptors on Windows (os/file.hpp): the C runtime's descriptors over Win32 handles, read
// and written with ReadFile and WriteFile (never through the runtime's text mode).
#include "os/file.hpp"

#include <fcntl.h>
#include <io.h>
#include <windows.h>
#include <winternl.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "os/windows/errors.hpp"

namespace fastblake::internal::os {
namespace {

HANDLE handle_of(int fd) noexcept { return reinterpret_cast<HANDLE>(::_get_osfhandle(fd)); }

int fill(HANDLE h, file_status& out, bool identify) noexcept {
  out = {};
  if (::GetFileType(h) != FILE_TYPE_DISK) return 0;  // a pipe, a console, a device
  BY_HANDLE_FILE_INFORMATION info;
  if (identify && ::GetFileInformationByHandle(h, &info)) {
    out.directory = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
    out.regular = !out.directory;
    out.size = std::uint64_t{info.nFileSizeHigh} << 32 | info.nFileSizeLow;
    out.device = info.dwVolumeSerialNumber;
    out.identity = std::uint64_t{info.nFileIndexHigh} << 32 | info.nFileIndexLow;
    return 0;
  }
  // Else the kind and size alone: GetFileInformationByHandle also asks for the volume, which
  // costs Wine half a millisecond a file (hashing 10,000 small ones, most of the time), and
  // Wine refuses it for a standard handle over a Unix file (a shell's < redirection): the
  // identity is then unknown (0).
  FILE_STANDARD_INFO standard;
  if (!::GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof standard)) {
    return fail_with_last_error();
  }
  out.directory = standard.Directory != FALSE;
  out.regular = !out.directory;
  out.size = static_cast<std::uint64_t>(standard.EndOfFile.QuadPart);
  return 0;
}

OVERLAPPED at_offset(std::uint64_t offset) noexcept {
  OVERLAPPED o{};
  o.Offset = static_cast<DWORD>(offset);
  o.OffsetHigh = static_cast<DWORD>(offset >> 32);
  return o;
}

// Positioned reads go to ntdll's NtReadFile, as Rust's standard library's do, rather than
// through ReadFile, which is NtReadFile with the OVERLAPPED as its completion context: Wine
// then asks its server after every read whether a completion port wants it, a round trip that
// made a cached 1 GiB file read in 64 KiB parts take 0.50 s under Wine 8 against 0.25 s.
using nt_read_file_function = NTSTATUS(WINAPI*)(HANDLE file, HANDLE event, void* apc_routine,
                                                void* apc_context, IO_STATUS_BLOCK* io,
                                                void* buffer, ULONG length, LARGE_INTEGER* offset,
                                                ULONG* key);
using nt_error_function = ULONG(WINAPI*)(NTSTATUS status);

struct native_reading {
  nt_read_file_function read = nullptr;
  nt_error_function error_of = nullptr;
};

template <class Function>
Function ntdll_function(const char* name) noexcept {
  const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  if (ntdll == nullptr) return nullptr;
  // (Through void*: a FARPROC cast straight to another function type draws
  // -Wcast-function-type.)
  return reinterpret_cast<Function>(reinterpret_cast<void*>(::GetProcAddress(ntdll, name)));
}

const native_reading& native() noexcept {
  static const native_reading functions = [] {
    native_reading n{ntdll_function<nt_read_file_function>("NtReadFile"),
                     ntdll_function<nt_error_function>("RtlNtStatusToDosError")};
    if (n.read == nullptr || n.error_of == nullptr) n = {};
    return n;
  }();
  return functions;
}

// Reads up to `want` bytes at `offset`: ERROR_SUCCESS with `n` set, or the Win32 error.
DWORD read_at(HANDLE h, std::byte* buffer, DWORD want, std::uint64_t offset, DWORD& n) noexcept {
  const native_reading& nt = native();
  if (nt.read == nullptr) {
    OVERLAPPED where = at_offset(offset);
    return ::ReadFile(h, buffer, want, &n, &where) ? ERROR_SUCCESS : ::GetLastError();
  }
  IO_STATUS_BLOCK io{};
  LARGE_INTEGER at;
  at.QuadPart = static_cast<LONGLONG>(offset);
  NTSTATUS status = nt.read(h, nullptr, nullptr, nullptr, &io, buffer, want, &at, nullptr);
  // A handle opened for overlapped I/O may finish later; the handle is signalled when it has.
  if (status == static_cast<NTSTATUS>(STATUS_PENDING)) {
    ::WaitForSingleObject(h, INFINITE);
    status = io.Status;
  }
  if (status < 0) return nt.error_of(status);
  n = static_cast<DWORD>(io.Information);
  return ERROR_SUCCESS;
}

// One ReadFile or WriteFile moves at most this much (a DWORD counts the bytes).
constexpr std::size_t most_at_once = std::size_t{1} << 30;

}  // namespace

std::wstring long_path(const std::filesystem::path& path) {
  // Paths of MAX_PATH (260) characters and more open only in the \\?\ form, which takes an
  // absolute path with backslashes and nothing to resolve; shorter ones go as they are.
  const std::wstring& name = path.native();
  if (name.size() < MAX_PATH - 12 || name.rfind(LR"(\\?\)", 0) == 0) return name;
  std::error_code ec;
  std::wstring full = std::filesystem::absolute(path, ec).lexically_normal().native();
  if (ec) return name;
  std::replace(full.begin(), full.end(), L'/', L'\\');
  if (full.rfind(LR"(\\)", 0) == 0) return LR"(\\?\UNC\)" + full.substr(2);
  return LR"(\\?\)" + full;
}

int status(int fd, file_status& out, bool identify) noexcept {
  const HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  return fill(h, out, identify);
}

int status(const std::filesystem::path& path, file_status& out) noexcept {
  try {
    // No access asked: the attributes and identity of anything, directories included.
    const HANDLE h = ::CreateFileW(long_path(path).c_str(), 0,
                                   FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                   OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return fail_with_last_error();
    const int result = fill(h, out, true);
    ::CloseHandle(h);
    return result;
  } catch (...) {
    errno = ENOMEM;
    return -1;
  }
}

std::int64_t read_fully(int fd, std::byte* buffer, std::size_t size,
                        std::uint64_t* position) noexcept {
  const HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return -1;
  }
  std::size_t got = 0;
  while (got < size) {
    const auto want = static_cast<DWORD>(std::min(size - got, most_at_once));
    DWORD n = 0;
    const DWORD e = position != nullptr ? read_at(h, buffer + got, want, *position, n)
                    : ::ReadFile(h, buffer + got, want, &n, nullptr) ? ERROR_SUCCESS
                                                                     : ::GetLastError();
    if (e != ERROR_SUCCESS) {
      // The end of a file read at an offset past it, and of a pipe whose writer closed it.
      if (e == ERROR_HANDLE_EOF || e == ERROR_BROKEN_PIPE) break;
      // A handle not open for reading: EBADF, as POSIX says of such a descriptor.
      if (e == ERROR_ACCESS_DENIED) return fail_with(ERROR_INVALID_HANDLE);
      // A directory's handle (a stream reads whatever it is given): EISDIR, as read(2) says.
      FILE_STANDARD_INFO standard;
      if (e == ERROR_INVALID_FUNCTION &&
          ::GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof standard) != 0 &&
          standard.Directory != FALSE) {
        errno = EISDIR;
        return -1;
      }
      return fail_with(e);
    }
    if (n == 0) break;
    got += n;
    if (position != nullptr) *position += n;
  }
  return static_cast<std::int64_t>(got);
}

bool write_fully(int fd, const std::byte* bytes, std::size_t size,
                 std::uint64_t position) noexcept {
  const HANDLE h = handle_of(fd);
  if (h == INVALID_HANDLE_VALUE) {
    errno = EBADF;
    return false;
  }
  for (std::size_t done = 0; done < size;) {
    const auto want = static_cast<DWORD>(std::min(size - done, most_at_once));
    DWORD n = 0;
    OVERLAPPED where = at_offset(position + done);
    if (!::WriteFile(h, bytes + done, want, &n, &where)) {
      const DWORD e = ::GetLastError();
      // A handle not open for writing: EBADF, as POSIX says of such a descriptor.
      fail_with(e == ERROR_ACCESS_DENIED ? ERROR_INVALID_HANDLE : e);
      return false;
    }
    done += n;
  }
  return true;
}

std::int64_t offset_of(int fd) noexcept { return ::_lseeki64(fd, 0, SEEK_CUR); }

bool seek_to(int fd, std::uint64_t offset) noexcept {
  return ::_lseeki64(fd, static_cast<std::int64_t>(offset), SEEK_SET) >= 0;
}

// (A handle opened with FILE_FLAG_NO_BUFFERING cannot be told from another through the C
// runtime; such handles are not made by it.)
bool reads_direct(int) noexcept { return false; }

int open_for_reading(const std::filesystem::path& path) noexcept {
  HANDLE h;
  try {
    // Shared every way, as POSIX opens are: others may read, write, rename or delete it
    // meanwhile. FILE_FLAG_BACKUP_SEMANTICS opens a directory too, which the file code then
    // refuses as is_a_directory, as it does on POSIX.
    h = ::CreateFileW(long_path(path).c_str(), GENERIC_READ,
                      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                      OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  } catch (...) {
    errno = ENOMEM;
    return -1;
  }
  if (h == INVALID_HANDLE_VALUE) return fail_with_last_error();
  int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(h), _O_RDONLY | _O_BINARY | _O_NOINHERIT);
  if (fd < 0) {
    ::CloseHandle(h);
    return -1;
  }
  // Never 0, 1 or 2: duplicates until the descriptor is above them, then the ones below go.
  std::vector<int> low;
  while (fd >= 0 && fd <= 2) {
    low.push_back(fd);
    fd = ::_dup(fd);
  }
  const int saved = errno;
  for (const int d : low) ::_close(d);
  errno = saved;
  return fd;
}

void close_file(int fd) noexcept { ::_close(fd); }

std::uint64_t mapping_alignment() noexcept {
  SYSTEM_INFO info;
  ::GetSystemInfo(&info);
  return info.dwAllocationGranularity;
}

}  // namespace fastblake::internal::os
