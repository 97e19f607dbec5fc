/* Fault injection for tools/tests/hostile_test.py, loaded with LD_PRELOAD. The target is the
 * file named by FASTBLAKE_FAIL_PATH (once opened), or descriptor N for "fd:N" (0 standard
 * input, 1 standard output). FASTBLAKE_FAIL_OP says what fails on it: "read" (read and pread,
 * the default), "write" (write and pwrite), or "open" (opening the path). Reads and writes fail
 * once FASTBLAKE_FAIL_AFTER bytes went through (0 by default), as a bad sector or a full disk
 * would, with errno FASTBLAKE_FAIL_ERRNO (a number; EIO by default). Only calls through the
 * dynamic symbols are caught: the tools' own I/O, which uses read(2) and write(2) directly;
 * not stdio's, nor memory-mapped files. Reads of the file FASTBLAKE_DELAY_PATH names sleep
 * FASTBLAKE_DELAY_US microseconds first, for a progress display to have something to show;
 * mapped, it sleeps as long at each madvise(MADV_DONTNEED) of its last mapping instead (the
 * file code's end of each window).
 * Three more operations act at the first read of the target path, for b3sum-mpi's tests:
 * "kill" kills the process with SIGKILL (a node that dies), "grow" appends a byte to the
 * file and "shrink" truncates it to half its size (a file changed while it is hashed), or by
 * FASTBLAKE_SHRINK_BY bytes when that is set. A mapped file is not read: for it they act at
 * the first madvise(MADV_DONTNEED), which the file code calls on the pages of each window it
 * has hashed, so the file changes after its first window and before the rest. With
 * FASTBLAKE_ACT_AT=N they act at the Nth such read or window instead of the first, so that a
 * test can change the file at every moment of the work.
 * FASTBLAKE_LOG_WRITES names a file that gets, for every write(2) to standard output, its size
 * and its last byte in decimal ("12 10\n"), for tests of whole-line output. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int failing_fd = -1;
static int delayed_fd = -1;
/* The last mapping of the delayed file: [delayed_map, delayed_map + delayed_map_len). */
static char* delayed_map;
static size_t delayed_map_len;
static long long budget;
static int started;

static int failing_op(const char* op) {
  const char* want = getenv("FASTBLAKE_FAIL_OP");
  return strcmp(want != NULL ? want : "read", op) == 0;
}

static int failure_errno(void) {
  const char* e = getenv("FASTBLAKE_FAIL_ERRNO");
  return e != NULL ? atoi(e) : EIO;
}

/* A descriptor target is armed at the first call. */
static void start(void) {
  if (__atomic_exchange_n(&started, 1, __ATOMIC_SEQ_CST)) return;
  const char* target = getenv("FASTBLAKE_FAIL_PATH");
  if (target != NULL && strncmp(target, "fd:", 3) == 0) {
    const char* after = getenv("FASTBLAKE_FAIL_AFTER");
    __atomic_store_n(&budget, after != NULL ? atoll(after) : 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&failing_fd, atoi(target + 3), __ATOMIC_SEQ_CST);
  }
}

static int refused_open(const char* path) {
  const char* target = getenv("FASTBLAKE_FAIL_PATH");
  if (target == NULL || !failing_op("open") || strcmp(path, target) != 0) return 0;
  errno = failure_errno();
  return 1;
}

static void track(const char* path, int fd) {
  const char* target = getenv("FASTBLAKE_FAIL_PATH");
  const char* slow = getenv("FASTBLAKE_DELAY_PATH");
  if (fd < 0) return;
  if (slow != NULL && strcmp(path, slow) == 0) __atomic_store_n(&delayed_fd, fd, __ATOMIC_SEQ_CST);
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
    if (refused_open(path)) return -1;                                                \
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
    if (refused_open(path)) return -1;                                                     \
    const int fd = real(dir, path, flags, mode);                                           \
    track(path, fd);                                                                       \
    return fd;                                                                             \
  }
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

static long long events;

/* The kill, grow and shrink operations, once, at the first read of the target (or at the Nth
 * read or window, for FASTBLAKE_ACT_AT=N). */
static void act_on(int fd) {
  if (fd < 0 || fd != __atomic_load_n(&failing_fd, __ATOMIC_SEQ_CST)) return;
  const char* at = getenv("FASTBLAKE_ACT_AT");
  if (__atomic_add_fetch(&events, 1, __ATOMIC_SEQ_CST) != (at != NULL ? atoll(at) : 1)) return;
  const char* path = getenv("FASTBLAKE_FAIL_PATH");
  if (failing_op("kill")) raise(SIGKILL);
  if (failing_op("grow")) {
    static int (*real_open)(const char*, int, ...);
    if (real_open == NULL) real_open = (int (*)(const char*, int, ...))dlsym(RTLD_NEXT, "open");
    const int out = real_open(path, O_WRONLY | O_APPEND);
    static ssize_t (*real_write)(int, const void*, size_t);
    if (real_write == NULL)
      real_write = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
    if (out >= 0) {
      if (real_write(out, "+", 1) != 1) abort();
      close(out);
    }
  }
  if (failing_op("shrink")) {
    struct stat info;
    const char* by = getenv("FASTBLAKE_SHRINK_BY");
    if (stat(path, &info) != 0) abort();
    const off_t shrunk = by != NULL ? info.st_size - (off_t)atoll(by) : info.st_size / 2;
    if (truncate(path, shrunk < 0 ? 0 : shrunk) != 0) abort();
  }
}

static void delay(void) {
  const char* us = getenv("FASTBLAKE_DELAY_US");
  usleep(us != NULL ? (useconds_t)atoi(us) : 0);
}

void* mmap(void* address, size_t length, int protection, int flags, int fd, off_t offset) {
  static void* (*real)(void*, size_t, int, int, int, off_t);
  if (real == NULL) real = (void* (*)(void*, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
  void* map = real(address, length, protection, flags, fd, offset);
  if (map != MAP_FAILED && fd >= 0 && fd == __atomic_load_n(&delayed_fd, __ATOMIC_SEQ_CST)) {
    delayed_map = (char*)map;
    delayed_map_len = length;
  }
  return map;
}

int madvise(void* address, size_t length, int advice) {
  static int (*real)(void*, size_t, int);
  if (real == NULL) real = (int (*)(void*, size_t, int))dlsym(RTLD_NEXT, "madvise");
  if (advice == MADV_DONTNEED) {
    act_on(__atomic_load_n(&failing_fd, __ATOMIC_SEQ_CST));
    if ((char*)address >= delayed_map && (char*)address < delayed_map + delayed_map_len) delay();
  }
  return real(address, length, advice);
}

/* How many of n bytes fd may read or write now (op): -1 when it must fail. */
static long long allowed(int fd, size_t n, const char* op) {
  start();
  if (strcmp(op, "read") == 0) act_on(fd);
  if (fd == __atomic_load_n(&delayed_fd, __ATOMIC_SEQ_CST) && strcmp(op, "read") == 0) delay();
  if (fd != __atomic_load_n(&failing_fd, __ATOMIC_SEQ_CST) || !failing_op(op)) return (long long)n;
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
  const long long may = allowed(fd, n, "read");
  if (may < 0) {
    errno = failure_errno();
    return -1;
  }
  return counted(fd, real(fd, buffer, (size_t)may));
}

/* One record of FASTBLAKE_LOG_WRITES, written with the real write(2) in one call. */
static void log_write(ssize_t (*real)(int, const void*, size_t), const void* buffer, size_t n) {
  const char* log = getenv("FASTBLAKE_LOG_WRITES");
  if (log == NULL || n == 0) return;
  const int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (out < 0) abort();
  char record[48];
  const int length = snprintf(record, sizeof record, "%zu %u\n", n,
                              (unsigned)((const unsigned char*)buffer)[n - 1]);
  if (real(out, record, (size_t)length) != length) abort();
  close(out);
}

ssize_t write(int fd, const void* buffer, size_t n) {
  static ssize_t (*real)(int, const void*, size_t);
  if (real == NULL) real = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  if (fd == STDOUT_FILENO) log_write(real, buffer, n);
  const long long may = allowed(fd, n, "write");
  if (may < 0) {
    errno = failure_errno();
    return -1;
  }
  return counted(fd, real(fd, buffer, (size_t)may));
}

#define PREAD_WRAPPER(name, offset_type)                                                           \
  ssize_t name(int fd, void* buffer, size_t n, offset_type offset) {                               \
    static ssize_t (*real)(int, void*, size_t, offset_type);                                       \
    if (real == NULL) real = (ssize_t(*)(int, void*, size_t, offset_type))dlsym(RTLD_NEXT, #name); \
    const long long may = allowed(fd, n, "read");                                                  \
    if (may < 0) {                                                                                 \
      errno = failure_errno();                                                                     \
      return -1;                                                                                   \
    }                                                                                              \
    return counted(fd, real(fd, buffer, (size_t)may, offset));                                     \
  }
PREAD_WRAPPER(pread, off_t)
PREAD_WRAPPER(pread64, off64_t)

#define PWRITE_WRAPPER(name, offset_type)                                                \
  ssize_t name(int fd, const void* buffer, size_t n, offset_type offset) {               \
    static ssize_t (*real)(int, const void*, size_t, offset_type);                       \
    if (real == NULL)                                                                    \
      real = (ssize_t(*)(int, const void*, size_t, offset_type))dlsym(RTLD_NEXT, #name); \
    const long long may = allowed(fd, n, "write");                                       \
    if (may < 0) {                                                                       \
      errno = failure_errno();                                                           \
      return -1;                                                                         \
    }                                                                                    \
    return counted(fd, real(fd, buffer, (size_t)may, offset));                           \
  }
PWRITE_WRAPPER(pwrite, off_t)
PWRITE_WRAPPER(pwrite64, off64_t)
