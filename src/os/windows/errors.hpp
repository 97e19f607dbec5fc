// Windows' errors as errno values, which the file code reports everywhere (os/file.hpp), and
// the long-path form of a path.
#pragma once

#include <windows.h>

#include <cerrno>
#include <filesystem>
#include <string>

namespace fastblake::internal::os {

/// The errno value nearest to a Win32 error (EIO for those without one).
inline int errno_of(DWORD error) noexcept {
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
    case ERROR_LOCK_VIOLATION:
    case ERROR_NETWORK_ACCESS_DENIED:
      return EACCES;
    case ERROR_INVALID_HANDLE:
      return EBADF;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
    case ERROR_COMMITMENT_LIMIT:
      return ENOMEM;
    case ERROR_DIRECTORY:
      return ENOTDIR;
    case ERROR_FILENAME_EXCED_RANGE:
      return ENAMETOOLONG;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return EEXIST;
    case ERROR_INVALID_PARAMETER:
      return EINVAL;
    case ERROR_TOO_MANY_OPEN_FILES:
      return EMFILE;
    case ERROR_BROKEN_PIPE:
    case ERROR_NO_DATA:
    case ERROR_PIPE_NOT_CONNECTED:  // (Wine's word for a pipe whose reader has gone)
      return EPIPE;
    case ERROR_WRITE_PROTECT:
      return EROFS;
    case ERROR_DIR_NOT_EMPTY:
      return ENOTEMPTY;
    default:
      return EIO;
  }
}

/// Sets errno for `error` and returns -1, as a failed POSIX call does.
inline int fail_with(DWORD error) noexcept {
  errno = errno_of(error);
  return -1;
}
inline int fail_with_last_error() noexcept { return fail_with(::GetLastError()); }

/// The name to give the wide API for path: as it is, or, from MAX_PATH characters on, the
/// \\?\ form that long paths need (absolute, backslashes, normalised).
std::wstring long_path(const std::filesystem::path& path);

}  // namespace fastblake::internal::os
