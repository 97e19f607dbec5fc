/* What the C tests use of the operating system, on POSIX systems and on Windows, where
 * MinGW-w64's C runtime has open, write, close, unlink and mkstemp but opens in text mode and
 * has no pread, ftruncate, getrusage, nor (Debian's) mkdtemp. Descriptors are binary everywhere. */
#ifndef FASTBLAKE_TESTS_C_OS_SUPPORT_H
#define FASTBLAKE_TESTS_C_OS_SUPPORT_H

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef _WIN32
#include <direct.h>
#include <io.h>
/* GetProcessMemoryInfo from kernel32 (K32GetProcessMemoryInfo), no psapi.dll needed. */
#define PSAPI_VERSION 2
#include <windows.h>

#include <psapi.h>

static inline int test_open(const char* path, int flags) {
  return _open(path, flags | _O_BINARY, _S_IREAD | _S_IWRITE);
}
/* (Moves the descriptor's offset, which these tests never read.) */
static inline long long pread(int fd, void* buffer, size_t size, long long offset) {
  if (_lseeki64(fd, offset, SEEK_SET) < 0) return -1;
  return _read(fd, buffer, (unsigned)size);
}
static inline int ftruncate(int fd, long long size) { return _chsize_s(fd, size) == 0 ? 0 : -1; }
/* mkdtemp (newer MinGW-w64 has one, Debian's has not). */
static inline char* make_temp_dir(char* pattern) {
  if (_mktemp_s(pattern, strlen(pattern) + 1) != 0 || _mkdir(pattern) != 0) return NULL;
  return pattern;
}
#define rmdir _rmdir
/* The memory this process has held at most, in KiB. */
static inline long peak_kib(void) {
  PROCESS_MEMORY_COUNTERS counters;
  if (!GetProcessMemoryInfo(GetCurrentProcess(), &counters, sizeof counters)) return 0;
  return (long)(counters.PeakWorkingSetSize / 1024);
}
#else
#include <sys/resource.h>
#include <unistd.h>

static inline int test_open(const char* path, int flags) { return open(path, flags, 0600); }
static inline char* make_temp_dir(char* pattern) { return mkdtemp(pattern); }
/* The memory this process has held at most, in KiB. */
static inline long peak_kib(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}
#endif

/* A name for mkstemp or mkdtemp in the temporary directory: `name` (ending in XXXXXX) under
 * TMPDIR, or /tmp; on Windows under GetTempPath's directory. */
static inline void temp_pattern(char* out, size_t size, const char* name) {
#ifdef _WIN32
  char dir[MAX_PATH + 1];
  const DWORD n = GetTempPathA(sizeof dir, dir);
  snprintf(out, size, "%s%s", n > 0 && n < sizeof dir ? dir : ".\\", name);
#else
  const char* dir = getenv("TMPDIR");
  snprintf(out, size, "%s/%s", dir != NULL && dir[0] != 0 ? dir : "/tmp", name);
#endif
}

#endif
