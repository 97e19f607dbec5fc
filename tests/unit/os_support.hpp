// What the unit tests ask of the operating system, for POSIX systems and Windows alike:
// environment variables, descriptors opened by path, pipes. (The library's own is src/os/.)
#pragma once

#include <fcntl.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#ifdef _WIN32
#include <io.h>
#include <process.h>
#include <windows.h>
#else
#include <unistd.h>
#endif

#include <chrono>
#include <system_error>
#include <thread>

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

#ifdef _WIN32
/// Whether this Windows program runs under Wine.
inline bool under_wine() {
  const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  return ntdll != nullptr && ::GetProcAddress(ntdll, "wine_get_version") != nullptr;
}
#endif

/// Cuts the file at path to `size` bytes, as another process would, while it may be open and
/// mapped here. Windows refuses to cut a file that has a mapped view (ERROR_USER_MAPPED_FILE);
/// under Wine the cut is then made by a Unix process (Wine starts Unix programs too), as a
/// program on another machine cuts a file on a share. False where it cannot be cut.
inline bool shrink_file(const std::filesystem::path& path, std::uint64_t size) {
  std::error_code ec;
  std::filesystem::resize_file(path, size, ec);
  if (!ec) return true;
#ifdef _WIN32
  if (!under_wine()) return false;
  using unix_name_function = char*(__cdecl*)(const wchar_t*);
  const auto unix_name = reinterpret_cast<unix_name_function>(reinterpret_cast<void*>(
      ::GetProcAddress(::GetModuleHandleW(L"kernel32.dll"), "wine_get_unix_file_name")));
  char* name = unix_name != nullptr ? unix_name(path.c_str()) : nullptr;
  if (name == nullptr) return false;
  std::wstring command = L"Z:\\usr\\bin\\truncate -s " + std::to_wstring(size) + L" \"";
  for (const char* c = name; *c != 0; ++c) command += static_cast<wchar_t>(*c);
  command += L"\"";
  ::HeapFree(::GetProcessHeap(), 0, name);
  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  PROCESS_INFORMATION process{};
  if (!::CreateProcessW(nullptr, command.data(), nullptr, nullptr, FALSE, 0, nullptr, nullptr,
                        &startup, &process)) {
    return false;
  }
  ::WaitForSingleObject(process.hProcess, 10000);
  ::CloseHandle(process.hThread);
  ::CloseHandle(process.hProcess);
  // (Wine's wait on a Unix process may end before it does: the size tells.)
  for (int tries = 0; tries < 1000; ++tries) {
    WIN32_FILE_ATTRIBUTE_DATA data;
    if (::GetFileAttributesExW(path.c_str(), GetFileExInfoStandard, &data) &&
        (std::uint64_t{data.nFileSizeHigh} << 32 | data.nFileSizeLow) == size) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
#else
  return false;
#endif
}

}  // namespace fastblake::test
