/* Allocation failure for tools/tests/allocation_test.py, loaded with LD_PRELOAD: the Nth call
 * (FASTBLAKE_FAIL_ALLOC_AT=N, counting from 1) to malloc, calloc, realloc, memalign,
 * aligned_alloc, posix_memalign or valloc made once main() runs returns no memory (ENOMEM), as
 * an exhausted address space would; every other call is served by the C library. With
 * FASTBLAKE_ALLOC_COUNT naming a file, the number of calls made is written there at exit, so
 * that a test knows every N to try. Calls before main() (the loader's, the C and C++ runtimes'
 * own set-up) are not counted: their failure is the runtime's, not the tool's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* pointer, size_t size);
extern void* __libc_memalign(size_t alignment, size_t size);

static long long fail_at = -1;
static long long calls;
static int counting;

/* The first call after this constructor is the program's: preloaded constructors run after
 * those of the libraries the program links (the C++ runtime's emergency pool included). */
__attribute__((constructor(65535))) static void arm(void) {
  const char* at = getenv("FASTBLAKE_FAIL_ALLOC_AT");
  if (at != NULL) fail_at = atoll(at);
  __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
}

__attribute__((destructor)) static void report(void) {
  const char* path = getenv("FASTBLAKE_ALLOC_COUNT");
  if (path == NULL) return;
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  char text[32];
  const int n = snprintf(text, sizeof text, "%lld\n", __atomic_load_n(&calls, __ATOMIC_SEQ_CST));
  if (write(fd, text, (size_t)n) != n) abort();
  close(fd);
}

/* Whether this call is the one to fail. */
static int failing(void) {
  if (!__atomic_load_n(&counting, __ATOMIC_SEQ_CST)) return 0;
  const long long n = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
  if (n != fail_at) return 0;
  errno = ENOMEM;
  return 1;
}

void* malloc(size_t size) { return failing() ? NULL : __libc_malloc(size); }

void* calloc(size_t count, size_t size) { return failing() ? NULL : __libc_calloc(count, size); }

void* realloc(void* pointer, size_t size) {
  return failing() ? NULL : __libc_realloc(pointer, size);
}

void* memalign(size_t alignment, size_t size) {
  return failing() ? NULL : __libc_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) {
  return failing() ? NULL : __libc_memalign(alignment, size);
}

void* valloc(size_t size) {
  return failing() ? NULL : __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (failing()) return ENOMEM;
  void* p = __libc_memalign(alignment, size);
  if (p == NULL) return ENOMEM;
  *out = p;
  return 0;
}
