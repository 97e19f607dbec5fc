// What the unit tests ask of the operating system, for POSIX systems and Windows alike:
// environment variables, descriptors opened by path, pipes. (The library's own is src/os/.)
#pragma once

#include <fcntl.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#ifdef _WIN32
#include <io.h>
#include <process.h>
#include <windows.h>
// (after windows.h, which it needs)
#include <psapi.h>
#else
#include <unistd.h>
#endif

#include <system_error>

namespace fastblake::test {

inline void set_environment(const char* name, const char* value) {
#ifdef _WIN32
  ::_putenv_s(name, value);
#else
  ::setenv(name, value, 1);
#endif
}

// (On Windows an empty value removes the variable.)
inline void unset_environment(const char* name) {
#ifdef _WIN32
  ::_putenv_s(name, "");
#else
  ::unsetenv(name);
#endif
}

/// The path opened read-only (binary on Windows); -1 on failure.
inline int open_read(const std::filesystem::path& path) {
#ifdef _WIN32
  return ::_wopen(path.c_str(), _O_RDONLY | _O_BINARY);
#else
  return ::open(path.c_str(), O_RDONLY);
#endif
}

/// The path opened read-write, created if missing (binary on Windows); -1 on failure.
inline int open_read_write(const std::filesystem::path& path) {
#ifdef _WIN32
  return ::_wopen(path.c_str(), _O_RDWR | _O_CREAT | _O_BINARY, _S_IREAD | _S_IWRITE);
#else
  return ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
#endif
}

/// Moves the descriptor's offset to `offset` (64 bits everywhere); false on failure.
inline bool seek_fd(int fd, std::uint64_t offset) {
#ifdef _WIN32
  return ::_lseeki64(fd, static_cast<long long>(offset), SEEK_SET) >= 0;
#else
  return ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) >= 0;
#endif
}

inline void close_fd(int fd) {
#ifdef _WIN32
  ::_close(fd);
#else
  ::close(fd);
#endif
}

/// A pipe's read and write ends (binary on Windows); false on failure.
inline bool make_pipe(int ends[2]) {
#ifdef _WIN32
  return ::_pipe(ends, 1u << 16, _O_BINARY) == 0;
#else
  return ::pipe(ends) == 0;
#endif
}

inline int process_id() {
#ifdef _WIN32
  return ::_getpid();
#else
  return static_cast<int>(::getpid());
#endif
}

/// The size of a memory page.
inline std::uint64_t page_size() {
#ifdef _WIN32
  SYSTEM_INFO info;
  ::GetSystemInfo(&info);
  return info.dwPageSize;
#else
  return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
#endif
}

/// The process's resident set (its working set on Windows) in bytes; 0 where unknown.
inline std::uint64_t resident_bytes() {
#ifdef _WIN32
  PROCESS_MEMORY_COUNTERS counters{};
  if (!::K32GetProcessMemoryInfo(::GetCurrentProcess(), &counters, sizeof counters)) return 0;
  return counters.WorkingSetSize;
#elif defined(__linux__)
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0;
  std::uint64_t resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * page_size();
#else
  return 0;
#endif
}

#ifdef _WIN32
/// Whether this Windows program runs under Wine.
inline bool under_wine() {
  const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  return ntdll != nullptr && ::GetProcAddress(ntdll, "wine_get_version") != nullptr;
}
#endif

#if defined(_WIN32) && defined(__x86_64__) && defined(__GNUC__)
/// Linux's truncate(2), called from a Windows program under Wine: its code runs as any code of
/// the Linux process that Wine is, so the syscall instruction reaches Linux itself.
inline long linux_truncate(const char* unix_path, std::uint64_t size) {
  long result;
  asm volatile("syscall"
               : "=a"(result)
               : "a"(76L), "D"(unix_path), "S"(static_cast<long>(size))
               : "rcx", "r11", "memory");
  return result;
}
#endif

/// Cuts the file at path to `size` bytes, as another process would, while it may be open and
/// mapped here. Windows refuses to cut a file that has a mapped view (ERROR_USER_MAPPED_FILE);
/// under Wine the cut is then made by Linux itself (truncate(2) on the file's Unix name), as a
/// program on another machine cuts a file on a share. False where it cannot be cut.
inline bool shrink_file(const std::filesystem::path& path, std::uint64_t size) {
  std::error_code ec;
  std::filesystem::resize_file(path, size, ec);
  if (!ec) return true;
#if defined(_WIN32) && defined(__x86_64__) && defined(__GNUC__)
  if (!under_wine()) return false;
  using unix_name_function = char*(__cdecl*)(const wchar_t*);
  const auto unix_name = reinterpret_cast<unix_name_function>(reinterpret_cast<void*>(
      ::GetProcAddress(::GetModuleHandleW(L"kernel32.dll"), "wine_get_unix_file_name")));
  char* name = unix_name != nullptr ? unix_name(path.c_str()) : nullptr;
  if (name == nullptr) return false;
  const long result = linux_truncate(name, size);
  ::HeapFree(::GetProcessHeap(), 0, name);
  return result == 0;
#else
  return false;
#endif
}

}  // namespace fastblake::test
