/* The C interface, compiled as C11: every function against the C++ API's answers
 * (expected.cpp) and a few published vectors, statuses and their messages, copies of states,
 * and that failed calls write nothing. Prints each failure; exits 1 if any. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fastblake/fastblake.h>

#include "check.h"
#include "expected.h"
#include "os_support.h"

int failures = 0;

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
  char dir[512];
  temp_pattern(dir, sizeof dir, "fastblake-c-test-XXXXXX");
  if (make_temp_dir(dir) == NULL) {
    fprintf(stderr, "%s:%d: make_temp_dir failed\n", __FILE__, __LINE__);
    ++failures;
    return;
  }
  char path[600];
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
    const int fd = test_open(path, O_RDONLY);
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
  char missing[600];
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

static void test_backends_and_threads(void) {
  const char* names[16];
  const size_t count = fastblake_available_backends(names, 16);
  CHECK(count >= 1 && count <= 16);
  char joined[256] = "";
  for (size_t i = 0; i < count; ++i) {
    if (i != 0) strcat(joined, ",");
    strcat(joined, names[i]);
  }
  CHECK(strcmp(joined, expected_backends()) == 0);
  CHECK(fastblake_available_backends(NULL, 0) == count);
  const char* original = fastblake_active_backend();
  uint8_t want[32], got[32];
  uint8_t* in = test_input(5000);
  expected_blake3(0, NULL, NULL, 0, in, 5000, 0, want, 32);
  for (size_t i = 0; i < count; ++i) {
    CHECK(fastblake_use_backend(names[i]) == 0);
    CHECK(strcmp(fastblake_active_backend(), names[i]) == 0);
    fastblake_blake3_hash(in, 5000, got);
    CHECK(memcmp(got, want, 32) == 0);
  }
  CHECK(fastblake_use_backend("no-such-backend") == EINVAL);
  CHECK(fastblake_use_backend(NULL) == EINVAL);
  CHECK(fastblake_use_backend(original) == 0);
  CHECK(strcmp(fastblake_backend_override_error(), "") == 0);
  CHECK(strlen(fastblake_active_blake2_kernels()) > 0);

  /* The variants of the best backend (avx512 has two), each giving the same hashes. */
  CHECK(fastblake_use_backend(names[0]) == 0);
  const char* variants[8];
  const size_t variant_count = fastblake_available_variants(variants, 8);
  CHECK(variant_count <= 8 && fastblake_available_variants(NULL, 0) == variant_count);
  char choice[160];
  const size_t choice_length = fastblake_variant_choice(choice, sizeof choice);
  CHECK(choice_length == strlen(choice));
  CHECK((variant_count == 0) == (choice_length == 0));
  CHECK((variant_count == 0) == (strcmp(fastblake_active_variant(), "") == 0));
  char first_letter[1] = {'x'};
  CHECK(fastblake_variant_choice(first_letter, 1) == choice_length && first_letter[0] == '\0');
  const char* original_variant = fastblake_active_variant();
  for (size_t i = 0; i < variant_count; ++i) {
    CHECK(fastblake_use_variant(variants[i]) == 0);
    CHECK(strcmp(fastblake_active_variant(), variants[i]) == 0);
    fastblake_blake3_hash(in, 5000, got);
    CHECK(memcmp(got, want, 32) == 0);
    CHECK(fastblake_variant_choice(choice, sizeof choice) == strlen("use_variant"));
    CHECK(strcmp(choice, "use_variant") == 0);
  }
  CHECK(fastblake_use_variant("no-such-variant") == EINVAL);
  CHECK(fastblake_use_variant(NULL) == EINVAL);
  if (variant_count > 0) CHECK(fastblake_use_variant(original_variant) == 0);
  CHECK(fastblake_use_backend(original) == 0);

  CHECK(fastblake_default_threads() >= 1);
  fastblake_thread_pool* pool = fastblake_thread_pool_new(3);
  CHECK(pool != NULL && fastblake_thread_pool_size(pool) == 3);
  uint8_t* big = test_input(3u << 20);
  uint8_t want_big[32];
  expected_blake3(0, NULL, NULL, 0, big, 3u << 20, 0, want_big, 32);
  fastblake_blake3_hasher h;
  fastblake_blake3_hasher_init(&h);
  fastblake_blake3_hasher_update_pool(&h, pool, big, 3u << 20);
  fastblake_blake3_hasher_finalize(&h, got, 32);
  CHECK(memcmp(got, want_big, 32) == 0);
  fastblake_blake3_hasher_init(&h);
  fastblake_blake3_hasher_update_pool(&h, NULL, big, 3u << 20);
  fastblake_blake3_hasher_finalize(&h, got, 32);
  CHECK(memcmp(got, want_big, 32) == 0);
  fastblake_thread_pool_free(pool);
  fastblake_thread_pool_free(NULL);
  errno = 0;
  CHECK(fastblake_thread_pool_new(5000) == NULL && errno == EINVAL);
  free(big);
  free(in);
}

static void test_hash_many(void) {
  enum { n = 40 };
  const void* inputs[n];
  size_t lengths[n];
  uint8_t* buffers[n];
  uint8_t key[32];
  for (int i = 0; i < 32; ++i) key[i] = (uint8_t)(3 * i);
  for (int i = 0; i < n; ++i) {
    lengths[i] = (size_t)(i * 97 % 3000);
    buffers[i] = test_input(lengths[i]);
    inputs[i] = buffers[i];
  }
  uint8_t out[n * 64], want[64];
  CHECK(fastblake_blake3_hash_many(inputs, lengths, n, NULL, out) == 0);
  for (int i = 0; i < n; ++i) {
    expected_blake3(0, NULL, NULL, 0, inputs[i], lengths[i], 0, want, 32);
    CHECK(memcmp(out + 32 * i, want, 32) == 0);
  }
  CHECK(fastblake_blake3_hash_many(inputs, lengths, n, key, out) == 0);
  for (int i = 0; i < n; ++i) {
    expected_blake3(1, key, NULL, 0, inputs[i], lengths[i], 0, want, 32);
    CHECK(memcmp(out + 32 * i, want, 32) == 0);
  }
  CHECK(fastblake_blake3_hash_many(NULL, NULL, 0, NULL, NULL) == 0);
  for (int algorithm = FASTBLAKE_BLAKE2B; algorithm <= FASTBLAKE_BLAKE2S; ++algorithm) {
    fastblake_blake2_params p;
    fastblake_blake2_params_init(&p);
    p.hash_length = 20;
    p.key = key;
    p.key_length = 9;
    CHECK(fastblake_blake2_hash_many(algorithm, &p, inputs, lengths, n, out) == 0);
    for (int i = 0; i < n; ++i) {
      expected_blake2(algorithm, &p, inputs[i], lengths[i], want);
      CHECK(memcmp(out + 20 * i, want, 20) == 0);
    }
  }
  CHECK(fastblake_blake2_hash_many(FASTBLAKE_BLAKE2BP, NULL, inputs, lengths, n, out) == EINVAL);
  for (int i = 0; i < n; ++i) free(buffers[i]);
}

static void test_subtrees(void) {
  uint8_t key[32];
  for (int i = 0; i < 32; ++i) key[i] = (uint8_t)(5 * i + 2);
  const char* context = "fastblake C subtrees";
  const size_t n = 10 * 1024 + 333;
  uint8_t* in = test_input(n);
  CHECK(fastblake_blake3_left_subtree_len(n) == 8192);
  CHECK(fastblake_blake3_left_subtree_len(1024) == 0);
  CHECK(fastblake_blake3_max_subtree_len(0) == UINT64_MAX);
  CHECK(fastblake_blake3_max_subtree_len(8192) == 8192);
  CHECK(fastblake_blake3_max_subtree_len(100) == 0);
  for (int mode = 0; mode < 3; ++mode) {
    fastblake_blake3_hasher modes[3];
    fastblake_blake3_hasher_init(&modes[0]);
    fastblake_blake3_hasher_init_keyed(&modes[1], key);
    fastblake_blake3_hasher_init_derive_key(&modes[2], context);
    const uint64_t split = fastblake_blake3_left_subtree_len(n);
    uint8_t left[32], right[32], want[32];
    fastblake_blake3_hasher h = modes[mode];
    CHECK(fastblake_blake3_hasher_set_input_offset(&h, 0) == 0);
    CHECK(fastblake_blake3_hasher_update_subtree(&h, in, split) == 0);
    CHECK(fastblake_blake3_hasher_finalize_non_root(&h, left) == 0);
    expected_subtree(mode, key, context, in, split, 0, want);
    CHECK(memcmp(left, want, 32) == 0);
    h = modes[mode];
    CHECK(fastblake_blake3_hasher_set_input_offset(&h, split) == 0);
    CHECK(fastblake_blake3_hasher_update_subtree(&h, in + split, n - split) == 0);
    CHECK(fastblake_blake3_hasher_finalize_non_root(&h, right) == 0);
    expected_subtree(mode, key, context, in + split, n - split, split, want);
    CHECK(memcmp(right, want, 32) == 0);
    uint8_t whole[100], merged[100];
    expected_blake3(mode, key, context, strlen(context), in, n, 7, whole, 100);
    fastblake_blake3_merge_subtrees_root(&modes[mode], left, right, 7, merged, 100);
    CHECK(memcmp(merged, whole, 100) == 0);
    uint8_t parent[32];
    fastblake_blake3_merge_subtrees_non_root(&modes[mode], left, right, parent);
    CHECK(memcmp(parent, left, 32) != 0);
  }
  /* Misuse: EINVAL and nothing absorbed or written. */
  fastblake_blake3_hasher h;
  fastblake_blake3_hasher_init(&h);
  CHECK(fastblake_blake3_hasher_set_input_offset(&h, 100) == EINVAL);
  uint8_t untouched[32];
  memset(untouched, 0x5a, 32);
  CHECK(fastblake_blake3_hasher_set_input_offset(&h, 1024) == 0);
  CHECK(fastblake_blake3_hasher_finalize_non_root(&h, untouched) == EINVAL);
  CHECK(fastblake_blake3_hasher_update_subtree(&h, in, 2048) == EINVAL);
  CHECK(fastblake_blake3_hasher_count(&h) == 0);
  for (int i = 0; i < 32; ++i) CHECK(untouched[i] == 0x5a);
  fastblake_blake3_hasher_update(&h, in, 1);
  CHECK(fastblake_blake3_hasher_set_input_offset(&h, 0) == EINVAL);
  free(in);
}

static void test_blake2x(void) {
  uint8_t key[64], salt[16], personal[16];
  for (int i = 0; i < 64; ++i) key[i] = (uint8_t)i;
  for (int i = 0; i < 16; ++i) salt[i] = (uint8_t)(30 + i), personal[i] = (uint8_t)(90 + i);
  static const uint64_t lengths[] = {1, 31, 32, 33, 64, 65, 1000, 4096};
  for (int b = 0; b < 2; ++b) {
    const int algorithm = b ? FASTBLAKE_BLAKE2XB : FASTBLAKE_BLAKE2XS;
    for (size_t l = 0; l < COUNT(lengths); ++l) {
      fastblake_blake2_params p;
      fastblake_blake2_params_init(&p);
      p.hash_length = (size_t)lengths[l];
      p.key = key;
      p.key_length = b ? 40 : 20;
      p.salt = salt;
      p.salt_length = b ? 16 : 8;
      p.personal = personal;
      p.personal_length = 5;
      uint8_t* in = test_input(3000);
      uint8_t* want = malloc(lengths[l]);
      uint8_t* got = malloc(lengths[l]);
      expected_blake2x(b, &p, in, 3000, lengths[l], want);
      CHECK(fastblake_blake2(algorithm, &p, in, 3000, got) == 0);
      CHECK(memcmp(got, want, lengths[l]) == 0);
      fastblake_blake2_state state;
      CHECK(fastblake_blake2_init(&state, algorithm, &p) == 0);
      fastblake_blake2_update(&state, in, 1000);
      fastblake_blake2_update(&state, in + 1000, 2000);
      memset(got, 0, lengths[l]);
      CHECK(fastblake_blake2_finalize(&state, got) == lengths[l]);
      CHECK(memcmp(got, want, lengths[l]) == 0);
      if (lengths[l] > 10) {
        memset(got, 0, lengths[l]);
        CHECK(fastblake_blake2_finalize_range(&state, 3, got, (size_t)lengths[l] - 10) == 0);
        CHECK(memcmp(got, want + 3, lengths[l] - 10) == 0);
      }
      CHECK(fastblake_blake2_finalize_range(&state, lengths[l], got, 1) == EINVAL);
      free(got);
      free(want);
      free(in);
    }
    /* Tree parameters are refused; lengths out of range too. */
    fastblake_blake2_params p;
    fastblake_blake2_params_init(&p);
    uint8_t out[64];
    p.fanout = 2;
    CHECK(fastblake_blake2(algorithm, &p, "x", 1, out) == EINVAL);
    fastblake_blake2_params_init(&p);
    p.hash_length = b ? (size_t)0xFFFFFFFFu : 65535;
    fastblake_blake2_state state;
    CHECK(fastblake_blake2_init(&state, algorithm, &p) == EINVAL);
  }
  /* The digest range of the sequential forms. */
  fastblake_blake2_state state;
  uint8_t full[64], part[10];
  CHECK(fastblake_blake2_init(&state, FASTBLAKE_BLAKE2B, NULL) == 0);
  fastblake_blake2_update(&state, "abc", 3);
  fastblake_blake2_finalize(&state, full);
  CHECK(fastblake_blake2_finalize_range(&state, 50, part, 10) == 0);
  CHECK(memcmp(part, full + 50, 10) == 0);
  CHECK(fastblake_blake2_finalize_range(&state, 60, part, 10) == EINVAL);
}

int main(void) {
  test_library();
  test_blake3_vectors();
  test_bao_vectors();
  test_bao_reader();
  test_bao_hostile();
  test_bao_stream();
  test_bao_slice_reader();
  test_blake3_one_shot();
  test_blake3_hasher();
  test_files();
  test_blake2();
  test_backends_and_threads();
  test_hash_many();
  test_subtrees();
  test_blake2x();
  if (failures != 0) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("the C interface agrees with the C++ API\n");
  return 0;
}
