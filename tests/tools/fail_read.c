/* Fault injection for tests/cli/hostile_test.py, loaded with LD_PRELOAD: reads of the file
 * named by FASTBLAKE_FAIL_PATH fail with EIO once FASTBLAKE_FAIL_AFTER bytes of it were read,
 * as a disk's bad sector would. Only read and pread through the dynamic symbols are caught:
 * enough for the tools' read paths, not for memory-mapped files. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int failing_fd = -1;
static long long budget;

static void track(const char* path, int fd) {
  const char* target = getenv("FASTBLAKE_FAIL_PATH");
  if (fd < 0) return;
  if (target != NULL && strcmp(path, target) == 0) {
    const char* after = getenv("FASTBLAKE_FAIL_AFTER");
    __atomic_store_n(&budget, after != NULL ? atoll(after) : 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&failing_fd, fd, __ATOMIC_SEQ_CST);
  } else if (fd == __atomic_load_n(&failing_fd, __ATOMIC_SEQ_CST)) {
    __atomic_store_n(&failing_fd, -1, __ATOMIC_SEQ_CST); /* the descriptor was reused */
  }
}

static mode_t mode_of(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

#define OPEN_WRAPPER(name)                                                            \
  int name(const char* path, int flags, ...) {                                        \
    static int (*real)(const char*, int, ...);                                        \
    if (real == NULL) real = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, #name); \
    va_list ap;                                                                       \
    va_start(ap, flags);                                                              \
    const mode_t mode = mode_of(flags, ap);                                           \
    va_end(ap);                                                                       \
    const int fd = real(path, flags, mode);                                           \
    track(path, fd);                                                                  \
    return fd;                                                                        \
  }
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name)                                                               \
  int name(int dir, const char* path, int flags, ...) {                                    \
    static int (*real)(int, const char*, int, ...);                                        \
    if (real == NULL) real = (int (*)(int, const char*, int, ...))dlsym(RTLD_NEXT, #name); \
    va_list ap;                                                                            \
    va_start(ap, flags);                                                                   \
    const mode_t mode = mode_of(flags, ap);                                                \
    va_end(ap);                                                                            \
    const int fd = real(dir, path, flags, mode);                                           \
    track(path, fd);                                                                       \
    return fd;                                                                             \
  }
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

/* How many of n bytes fd may read now: -1 when it must fail. */
static long long allowed(int fd, size_t n) {
  if (fd != __atomic_load_n(&failing_fd, __ATOMIC_SEQ_CST)) return (long long)n;
  const long long left = __atomic_load_n(&budget, __ATOMIC_SEQ_CST);
  if (left <= 0) return -1;
  return (long long)n < left ? (long long)n : left;
}

static ssize_t counted(int fd, ssize_t got) {
  if (got > 0 && fd == __atomic_load_n(&failing_fd, __ATOMIC_SEQ_CST)) {
    __atomic_sub_fetch(&budget, got, __ATOMIC_SEQ_CST);
  }
  return got;
}

ssize_t read(int fd, void* buffer, size_t n) {
  static ssize_t (*real)(int, void*, size_t);
  if (real == NULL) real = (ssize_t(*)(int, void*, size_t))dlsym(RTLD_NEXT, "read");
  const long long may = allowed(fd, n);
  if (may < 0) {
    errno = EIO;
    return -1;
  }
  return counted(fd, real(fd, buffer, (size_t)may));
}

#define PREAD_WRAPPER(name, offset_type)                                                           \
  ssize_t name(int fd, void* buffer, size_t n, offset_type offset) {                               \
    static ssize_t (*real)(int, void*, size_t, offset_type);                                       \
    if (real == NULL) real = (ssize_t(*)(int, void*, size_t, offset_type))dlsym(RTLD_NEXT, #name); \
    const long long may = allowed(fd, n);                                                          \
    if (may < 0) {                                                                                 \
      errno = EIO;                                                                                 \
      return -1;                                                                                   \
    }                                                                                              \
    return counted(fd, real(fd, buffer, (size_t)may, offset));                                     \
  }
PREAD_WRAPPER(pread, off_t)
PREAD_WRAPPER(pread64, off64_t)
