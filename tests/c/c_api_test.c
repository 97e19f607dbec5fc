/* The C interface, compiled as C11: every function against the C++ API's answers
 * (expected.cpp) and a few published vectors, statuses and their messages, copies of states,
 * and that failed calls write nothing. Prints each failure; exits 1 if any. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fastblake/fastblake.h>

#include "expected.h"

static int failures = 0;

#define CHECK(condition)                                                      \
  do {                                                                        \
    if (!(condition)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static void to_hex(const uint8_t* bytes, size_t n, char* out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  out[2 * n] = '\0';
}

static uint8_t* test_input(size_t n) {
  uint8_t* p = malloc(n == 0 ? 1 : n);
  for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(i % 251);
  return p;
}

static const size_t sizes[] = {0,    1,    63,   64,    65,     1023,
                               1024, 1025, 3000, 65536, 200001, (1u << 20) + 3};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void test_library(void) {
  CHECK(strcmp(fastblake_version(), expected_version()) == 0);
  CHECK(strcmp(fastblake_active_backend(), expected_backend()) == 0);
  CHECK(strcmp(fastblake_strerror(0), "success") == 0);
  CHECK(strcmp(fastblake_strerror(ENOENT), strerror(ENOENT)) == 0);
  CHECK(strstr(fastblake_strerror(FASTBLAKE_ETRUNCATED), "shrank") != NULL);
  CHECK(strstr(fastblake_strerror(FASTBLAKE_EOUTPUT_RANGE), "its end") != NULL);
  CHECK(strcmp(fastblake_strerror(-1000), "unknown fastblake status") == 0);
}

static void test_blake3_vectors(void) {
  uint8_t out[32];
  char hex[65];
  fastblake_blake3_hash("abc", 3, out);
  to_hex(out, 32, hex);
  CHECK(strcmp(hex, "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85") == 0);
  fastblake_blake3_hash(NULL, 0, out);
  to_hex(out, 32, hex);
  CHECK(strcmp(hex, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262") == 0);
}

static void test_blake3_one_shot(void) {
  uint8_t key[32];
  for (int i = 0; i < 32; ++i) key[i] = (uint8_t)(7 * i + 1);
  const char* context = "fastblake C interface test";
  for (size_t s = 0; s < COUNT(sizes); ++s) {
    const size_t n = sizes[s];
    uint8_t* in = test_input(n);
    uint8_t want[131], got[131];

    expected_blake3(0, NULL, NULL, 0, in, n, 0, want, 131);
    fastblake_blake3_hash(in, n, got);
    CHECK(memcmp(got, want, 32) == 0);
    fastblake_blake3_hash_xof(in, n, got, 131);
    CHECK(memcmp(got, want, 131) == 0);

    expected_blake3(1, key, NULL, 0, in, n, 0, want, 32);
    fastblake_blake3_keyed_hash(key, in, n, got);
    CHECK(memcmp(got, want, 32) == 0);

    expected_blake3(2, NULL, context, strlen(context), in, n, 0, want, 131);
    fastblake_blake3_derive_key(context, in, n, got, 131);
    CHECK(memcmp(got, want, 131) == 0);
    free(in);
  }
}

static uint8_t hasher_key[32];
static const char raw_context[] = {'a', '\0', 'b'};

/* Mode 0: plain; 1: keyed; 2: derive-key with "context"; 3: with a context holding a NUL. */
static void init_mode(fastblake_blake3_hasher* h, int mode) {
  if (mode == 0) fastblake_blake3_hasher_init(h);
  if (mode == 1) fastblake_blake3_hasher_init_keyed(h, hasher_key);
  if (mode == 2) fastblake_blake3_hasher_init_derive_key(h, "context");
  if (mode == 3) fastblake_blake3_hasher_init_derive_key_raw(h, raw_context, sizeof raw_context);
}

static void expected_mode(int mode, const uint8_t* in, size_t n, uint64_t seek, uint8_t* out,
                          size_t out_len) {
  if (mode == 0) expected_blake3(0, NULL, NULL, 0, in, n, seek, out, out_len);
  if (mode == 1) expected_blake3(1, hasher_key, NULL, 0, in, n, seek, out, out_len);
  if (mode == 2) expected_blake3(2, NULL, "context", 7, in, n, seek, out, out_len);
  if (mode == 3)
    expected_blake3(2, NULL, raw_context, sizeof raw_context, in, n, seek, out, out_len);
}

static void test_blake3_hasher(void) {
  for (int i = 0; i < 32; ++i) hasher_key[i] = (uint8_t)(255 - i);
  for (size_t s = 0; s < COUNT(sizes); ++s) {
    const size_t n = sizes[s];
    uint8_t* in = test_input(n);
    for (int mode = 0; mode < 4; ++mode) {
      fastblake_blake3_hasher h;
      uint8_t want[100], got[100];
      init_mode(&h, mode);
      /* In three pieces, the middle one on threads. */
      fastblake_blake3_hasher_update(&h, in, n / 3);
      fastblake_blake3_hasher_update_parallel(&h, in + n / 3, n / 3);
      fastblake_blake3_hasher_update(&h, in + 2 * (n / 3), n - 2 * (n / 3));
      CHECK(fastblake_blake3_hasher_count(&h) == n);
      expected_mode(mode, in, n, 0, want, 100);
      fastblake_blake3_hasher_finalize(&h, got, 100);
      CHECK(memcmp(got, want, 100) == 0);

      /* From a far position. */
      const uint64_t seek = ((uint64_t)1 << 40) + 17;
      expected_mode(mode, in, n, seek, want, 100);
      CHECK(fastblake_blake3_hasher_finalize_seek(&h, seek, got, 100) == 0);
      CHECK(memcmp(got, want, 100) == 0);

      /* Past byte 2^64 - 1 the output goes on as the official C's does. */
      expected_mode(mode, in, n, UINT64_MAX - 10, want, 100);
      CHECK(fastblake_blake3_hasher_finalize_seek(&h, UINT64_MAX - 10, got, 100) == 0);
      CHECK(memcmp(got, want, 100) == 0);

      /* A copy forks the hash, leaving the original alone; reset starts over in the same mode. */
      uint8_t digest[32], forked[32], after[32];
      fastblake_blake3_hasher_finalize(&h, digest, 32);
      fastblake_blake3_hasher fork;
      memcpy(&fork, &h, sizeof h);
      fastblake_blake3_hasher_update(&fork, "x", 1);
      fastblake_blake3_hasher_finalize(&fork, forked, 32);
      CHECK(memcmp(forked, digest, 32) != 0);
      fastblake_blake3_hasher_finalize(&h, after, 32);
      CHECK(memcmp(after, digest, 32) == 0);
      fastblake_blake3_hasher_reset(&h);
      CHECK(fastblake_blake3_hasher_count(&h) == 0);
      fastblake_blake3_hasher_update(&h, in, n);
      fastblake_blake3_hasher_finalize(&h, after, 32);
      CHECK(memcmp(after, digest, 32) == 0);
    }
    free(in);
  }
}

static void test_files(void) {
  char dir[] = "/tmp/fastblake-c-test-XXXXXX";
  if (mkdtemp(dir) == NULL) {
    fprintf(stderr, "%s:%d: mkdtemp failed\n", __FILE__, __LINE__);
    ++failures;
    return;
  }
  char path[256];
  snprintf(path, sizeof path, "%s/data", dir);
  const size_t n = (3u << 20) + 5;
  uint8_t* in = test_input(n);
  FILE* f = fopen(path, "wb");
  CHECK(f != NULL && fwrite(in, 1, n, f) == n);
  if (f != NULL) fclose(f);
  uint8_t want[32], got[32];
  expected_blake3(0, NULL, NULL, 0, in, n, 0, want, 32);

  CHECK(fastblake_blake3_hash_file(path, got) == 0);
  CHECK(memcmp(got, want, 32) == 0);
  const fastblake_file_strategy strategies[] = {FASTBLAKE_FILE_AUTOMATIC, FASTBLAKE_FILE_READ,
                                                FASTBLAKE_FILE_MMAP, FASTBLAKE_FILE_MMAP_PARALLEL,
                                                FASTBLAKE_FILE_STREAM};
  for (size_t i = 0; i < COUNT(strategies); ++i) {
    fastblake_blake3_hasher h;
    fastblake_blake3_hasher_init(&h);
    CHECK(fastblake_blake3_hasher_update_file(&h, path, strategies[i]) == 0);
    fastblake_blake3_hasher_finalize(&h, got, 32);
    CHECK(memcmp(got, want, 32) == 0);

    fastblake_blake3_hasher_init(&h);
    const int fd = open(path, O_RDONLY);
    CHECK(fd >= 0 && fastblake_blake3_hasher_update_fd(&h, fd, strategies[i]) == 0);
    if (fd >= 0) close(fd);
    fastblake_blake3_hasher_finalize(&h, got, 32);
    CHECK(memcmp(got, want, 32) == 0);
  }

  /* Failures: a status, and the hasher left as it was. */
  fastblake_blake3_hasher h, before;
  fastblake_blake3_hasher_init(&h);
  fastblake_blake3_hasher_update(&h, "kept", 4);
  memcpy(&before, &h, sizeof h);
  char missing[300];
  snprintf(missing, sizeof missing, "%s/missing", dir);
  CHECK(fastblake_blake3_hasher_update_file(&h, missing, FASTBLAKE_FILE_AUTOMATIC) == ENOENT);
  CHECK(fastblake_blake3_hasher_update_file(&h, dir, FASTBLAKE_FILE_READ) == EISDIR);
  CHECK(fastblake_blake3_hasher_update_file(&h, path, 42) == EINVAL);
  CHECK(fastblake_blake3_hasher_update_fd(&h, -1, FASTBLAKE_FILE_READ) == EBADF);
  uint8_t kept[32], expected_kept[32];
  fastblake_blake3_hasher_finalize(&h, kept, 32);
  fastblake_blake3_hasher_finalize(&before, expected_kept, 32);
  CHECK(memcmp(kept, expected_kept, 32) == 0);
  CHECK(fastblake_blake3_hash_file(missing, got) == ENOENT);

  remove(path);
  rmdir(dir);
  free(in);
}

static void test_blake2(void) {
  static const char abc_b[] =
      "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
      "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
  static const char abc_s[] = "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982";
  uint8_t out[64];
  char hex[129];
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2B, NULL, "abc", 3, out) == 0);
  to_hex(out, 64, hex);
  CHECK(strcmp(hex, abc_b) == 0);
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2S, NULL, "abc", 3, out) == 0);
  to_hex(out, 32, hex);
  CHECK(strcmp(hex, abc_s) == 0);

  uint8_t key[64], salt[16], personal[16];
  for (int i = 0; i < 64; ++i) key[i] = (uint8_t)i;
  for (int i = 0; i < 16; ++i) salt[i] = (uint8_t)(100 + i), personal[i] = (uint8_t)(200 + i);
  for (int algorithm = 0; algorithm < 4; ++algorithm) {
    const int sequential = algorithm < 2;
    const size_t max = algorithm % 2 == 0 ? 64 : 32;
    for (size_t s = 0; s < COUNT(sizes); ++s) {
      const size_t n = sizes[s];
      uint8_t* in = test_input(n);
      for (int variant = 0; variant < 3; ++variant) {
        fastblake_blake2_params p;
        fastblake_blake2_params_init(&p);
        if (variant >= 1) {
          p.hash_length = max - 5;
          p.key = key;
          p.key_length = max / 2 + 1;
        }
        if (variant == 2 && sequential) {
          p.salt = salt;
          p.salt_length = max / 4;
          p.personal = personal;
          p.personal_length = max / 4 - 1;
          p.fanout = 4;
          p.max_depth = 3;
          p.max_leaf_length = 4096;
          p.node_offset = 77;
          p.node_depth = 2;
          p.inner_hash_length = max;
          p.last_node = 1;
        }
        uint8_t want[64], got[64];
        const size_t length = expected_blake2(algorithm, &p, in, n, want);
        memset(got, 0, sizeof got);
        CHECK(fastblake_blake2(algorithm, &p, in, n, got) == 0);
        CHECK(memcmp(got, want, length) == 0);

        fastblake_blake2_state state;
        CHECK(fastblake_blake2_init(&state, algorithm, &p) == 0);
        fastblake_blake2_update(&state, in, n / 2);
        fastblake_blake2_state fork;
        memcpy(&fork, &state, sizeof state);
        fastblake_blake2_update(&state, in + n / 2, n - n / 2);
        memset(got, 0, sizeof got);
        CHECK(fastblake_blake2_finalize(&state, got) == length);
        CHECK(memcmp(got, want, length) == 0);
        fastblake_blake2_update(&fork, in + n / 2, n - n / 2);
        memset(got, 0, sizeof got);
        fastblake_blake2_finalize(&fork, got);
        CHECK(memcmp(got, want, length) == 0);
      }
      free(in);
    }
  }

  /* Invalid parameters: EINVAL, nothing written. */
  fastblake_blake2_params p;
  uint8_t untouched[64];
  memset(untouched, 0x5a, sizeof untouched);
  fastblake_blake2_params_init(&p);
  p.hash_length = 65;
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2B, &p, "abc", 3, untouched) == EINVAL);
  p.hash_length = 33;
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2S, &p, "abc", 3, untouched) == EINVAL);
  fastblake_blake2_params_init(&p);
  p.salt = salt;
  p.salt_length = 9;
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2S, &p, "abc", 3, untouched) == EINVAL);
  p.salt_length = 4;
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2BP, &p, "abc", 3, untouched) == EINVAL);
  fastblake_blake2_params_init(&p);
  p.node_offset = (uint64_t)1 << 48;
  CHECK(fastblake_blake2(FASTBLAKE_BLAKE2S, &p, "abc", 3, untouched) == EINVAL);
  CHECK(fastblake_blake2(9, NULL, "abc", 3, untouched) == EINVAL);
  for (int i = 0; i < 64; ++i) CHECK(untouched[i] == 0x5a);
  fastblake_blake2_state state;
  CHECK(fastblake_blake2_init(&state, 9, NULL) == EINVAL);
}

int main(void) {
  test_library();
  test_blake3_vectors();
  test_blake3_one_shot();
  test_blake3_hasher();
  test_files();
  test_blake2();
  if (failures != 0) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("the C interface agrees with the C++ API\n");
  return 0;
}
