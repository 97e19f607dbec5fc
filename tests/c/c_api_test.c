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

/* ---- Bao: its own vectors (tests/vectors/bao_vectors.txt), as the C++ test runs them ---- */

enum { bao_max = 64 * 1024 };

static void bao_input(uint8_t* out, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)((uint32_t)(i / 4 + 1) >> (8 * (i % 4)));
}

static void blake3_hex(const uint8_t* data, size_t len, char hex[65]) {
  uint8_t h[32];
  fastblake_blake3_hash(data, len, h);
  to_hex(h, 32, hex);
}

static int from_hex(const char* hex, uint8_t out[32]) {
  for (int i = 0; i < 32; ++i) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (uint8_t)v;
  }
  return 1;
}

/* Each number of a comma-separated list ("-": none) into out; returns how many. */
static size_t numbers(char* list, uint64_t* out, size_t max) {
  size_t n = 0;
  if (strcmp(list, "-") == 0) return 0;
  char* save = NULL;
  for (char* item = strtok_r(list, ",", &save); item != NULL && n < max;
       item = strtok_r(NULL, ",", &save)) {
    out[n++] = strtoull(item, NULL, 10);
  }
  return n;
}

/* A corrupted copy of encoded must fail with a Bao status, at `at` unless at is in the header. */
static void bao_corrupted_fails(const uint8_t hash[32], const uint8_t* encoded, size_t len,
                                const uint8_t* data, size_t data_len, uint64_t at, int slice,
                                uint64_t start, uint64_t count, int in_data) {
  static uint8_t bad[bao_max], out[bao_max];
  static uint8_t bad_data[bao_max];
  size_t out_len = 0;
  uint64_t offset = ~(uint64_t)0;
  memcpy(bad, encoded, len);
  if (data_len > 0) memcpy(bad_data, data, data_len);
  if (in_data) {
    bad_data[at] ^= 1;
  } else {
    bad[at] ^= 1;
  }
  const int status = slice ? fastblake_bao_decode_slice(hash, bad, len, start, count, 0, out,
                                                        bao_max, &out_len, &offset)
                           : fastblake_bao_decode(hash, bad, len, data != NULL ? bad_data : NULL,
                                                  data_len, 0, out, bao_max, &out_len, &offset);
  CHECK(status == FASTBLAKE_EBAO_MISMATCH || status == FASTBLAKE_EBAO_TRUNCATED);
  if (in_data || at >= 8) CHECK(offset == at);
}

static void test_bao_vectors(void) {
  FILE* f = fopen(FASTBLAKE_BAO_VECTORS, "r");
  CHECK(f != NULL);
  if (f == NULL) return;
  static uint8_t input[bao_max], encoded[bao_max], outboard[bao_max], out[bao_max], slice[bao_max];
  uint64_t points[256];
  char line[16384], hex[65];
  size_t cases = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    char* save = NULL;
    char* kind = strtok_r(line, " \n", &save);
    if (kind == NULL || kind[0] == '#') continue;
    char* words[8] = {0};
    for (int i = 0; i < 8; ++i) words[i] = strtok_r(NULL, " \n", &save);
    const size_t len = (size_t)strtoull(words[0], NULL, 10);
    bao_input(input, len);
    uint8_t hash[32], want_hash[32];
    size_t out_len = 0;
    uint64_t offset = 0;
    ++cases;
    if (strcmp(kind, "hash") == 0) {
      CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_COMBINED, 0, encoded, bao_max, hash) ==
            0);
      to_hex(hash, 32, hex);
      CHECK(strcmp(hex, words[1]) == 0);
    } else if (strcmp(kind, "encode") == 0 || strcmp(kind, "outboard") == 0) {
      const int format = kind[0] == 'e' ? FASTBLAKE_BAO_COMBINED : FASTBLAKE_BAO_OUTBOARD;
      uint8_t* e = format == FASTBLAKE_BAO_COMBINED ? encoded : outboard;
      const size_t size = (size_t)strtoull(words[1], NULL, 10);
      CHECK(fastblake_bao_encoded_size(len, format, 0) == size);
      CHECK(fastblake_bao_encode(input, len, format, 0, e, size - 1, hash) == ERANGE);
      CHECK(fastblake_bao_encode(input, len, format, 0, e, size, hash) == 0);
      CHECK(from_hex(words[2], want_hash) && memcmp(hash, want_hash, 32) == 0);
      blake3_hex(e, size, hex);
      CHECK(strcmp(hex, words[3]) == 0);
      const uint8_t* data = format == FASTBLAKE_BAO_OUTBOARD ? input : NULL;
      CHECK(fastblake_bao_decode(hash, e, size, data, len, 0, out, bao_max, &out_len, &offset) ==
            0);
      CHECK(out_len == len && memcmp(out, input, len) == 0);
      if (len > 0) {
        CHECK(fastblake_bao_decode(hash, e, size, data, len, 0, out, len - 1, &out_len, NULL) ==
              ERANGE);
        CHECK(out_len == len);
      }
      const size_t n = numbers(words[4], points, 256);
      for (size_t i = 0; i < n; ++i) {
        bao_corrupted_fails(hash, e, size, data, data != NULL ? len : 0, points[i], 0, 0, 0, 0);
      }
      if (format == FASTBLAKE_BAO_OUTBOARD) {
        const size_t m = numbers(words[5], points, 256);
        for (size_t i = 0; i < m; ++i) {
          bao_corrupted_fails(hash, e, size, input, len, points[i], 0, 0, 0, 1);
        }
      }
    } else if (strcmp(kind, "seek") == 0) {
      /* A seek and a read to the end, as a slice from the offset. */
      uint8_t h[32];
      CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_COMBINED, 0, encoded, bao_max, h) == 0);
      const size_t size = (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_COMBINED, 0);
      const size_t n = numbers(words[1], points, 256);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t from = points[i] < len ? points[i] : len;
        size_t slice_len = 0;
        CHECK(fastblake_bao_extract_slice(encoded, size, NULL, 0, points[i], len - from, 0, slice,
                                          bao_max, &slice_len, NULL) == 0);
        CHECK(fastblake_bao_decode_slice(h, slice, slice_len, points[i], len - from, 0, out,
                                         bao_max, &out_len, &offset) == 0);
        CHECK(out_len == len - from && memcmp(out, input + from, out_len) == 0);
      }
    } else if (strcmp(kind, "slice") == 0) {
      const uint64_t start = strtoull(words[2], NULL, 10), count = strtoull(words[3], NULL, 10);
      const size_t size = (size_t)strtoull(words[4], NULL, 10);
      CHECK(from_hex(words[1], hash));
      CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_COMBINED, 0, encoded, bao_max,
                                 want_hash) == 0);
      CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_OUTBOARD, 0, outboard, bao_max,
                                 want_hash) == 0);
      size_t slice_len = 0, outboard_slice_len = 0;
      const size_t encoded_size =
          (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_COMBINED, 0);
      const size_t outboard_size =
          (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_OUTBOARD, 0);
      CHECK(fastblake_bao_extract_slice(encoded, encoded_size, NULL, 0, start, count, 0, slice,
                                        bao_max, &slice_len, NULL) == 0);
      CHECK(slice_len == size);
      blake3_hex(slice, slice_len, hex);
      CHECK(strcmp(hex, words[5]) == 0);
      CHECK(fastblake_bao_extract_slice(outboard, outboard_size, input, len, start, count, 0, out,
                                        bao_max, &outboard_slice_len, NULL) == 0);
      CHECK(outboard_slice_len == slice_len && memcmp(out, slice, slice_len) == 0);
      CHECK(fastblake_bao_decode_slice(hash, slice, slice_len, start, count, 0, out, bao_max,
                                       &out_len, &offset) == 0);
      const uint64_t from = start < len ? start : len;
      const uint64_t want = count < len - from ? count : len - from;
      CHECK(out_len == want && memcmp(out, input + from, out_len) == 0);
      const size_t n = numbers(words[6], points, 256);
      for (size_t i = 0; i < n; ++i) {
        bao_corrupted_fails(hash, slice, slice_len, NULL, 0, points[i], 1, start, count, 0);
      }
    }
  }
  fclose(f);
  CHECK(cases == 274);
  /* Statuses. */
  uint8_t h[32];
  CHECK(fastblake_bao_encode(input, 10, FASTBLAKE_BAO_COMBINED, 33, encoded, bao_max, h) == EINVAL);
  CHECK(fastblake_bao_encode(input, 10, 7, 0, encoded, bao_max, h) == EINVAL);
  CHECK(fastblake_bao_encoded_size(10, FASTBLAKE_BAO_COMBINED, 33) == 0);
  size_t out_len = 0;
  CHECK(fastblake_bao_decode(h, encoded, 18, NULL, 0, 33, out, bao_max, &out_len, NULL) == EINVAL);
  CHECK(fastblake_bao_decode(h, encoded, 7, NULL, 0, 0, out, bao_max, &out_len, NULL) ==
        FASTBLAKE_EBAO_TRUNCATED);
  CHECK(strstr(fastblake_strerror(FASTBLAKE_EBAO_MISMATCH), "does not match") != NULL);
  CHECK(strstr(fastblake_strerror(FASTBLAKE_EBAO_TRUNCATED), "ends before") != NULL);
}

/* Memory read through a C read function; fails with EIO at fail_at and after, if set. */
struct memory_source {
  const uint8_t* bytes;
  size_t size;
  uint64_t fail_at;
};

static long long read_memory(void* context, uint64_t offset, void* buf, size_t len) {
  const struct memory_source* m = context;
  if (m->fail_at != 0 && offset + len > m->fail_at) {
    errno = EIO;
    return -1;
  }
  if (offset >= m->size) return 0;
  const size_t n = len < m->size - offset ? len : (size_t)(m->size - offset);
  memcpy(buf, m->bytes + offset, n);
  return (long long)n;
}

/* Reads everything from r in pieces of `piece` bytes into out; the status that ended it. */
static int read_all(fastblake_bao_reader* r, uint8_t* out, size_t piece, size_t* total,
                    uint64_t* offset) {
  *total = 0;
  for (;;) {
    size_t n = 0;
    const int status = fastblake_bao_reader_read(r, out + *total, piece, &n, offset);
    *total += n;
    if (status != 0 || n == 0) return status;
  }
}

static void test_bao_reader(void) {
  const size_t len = 700 * 1024 + 5;
  uint8_t* input = malloc(len);
  uint8_t* out = malloc(len + 4096);
  const size_t encoded_size = (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_COMBINED, 0);
  const size_t outboard_size = (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_OUTBOARD, 0);
  uint8_t* encoded = malloc(encoded_size);
  uint8_t* outboard = malloc(outboard_size);
  uint8_t hash[32], hash2[32];
  bao_input(input, len);
  CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_COMBINED, 0, encoded, encoded_size, hash) ==
        0);
  CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_OUTBOARD, 0, outboard, outboard_size,
                             hash2) == 0);
  struct memory_source e = {encoded, encoded_size, 0}, o = {outboard, outboard_size, 0},
                       d = {input, len, 0};
  fastblake_bao_reader* r = NULL;
  size_t total = 0;
  uint64_t offset = 0, length = 0;
  CHECK(fastblake_bao_reader_new(hash, read_memory, &e, NULL, NULL, 0, &r) == 0);
  CHECK(fastblake_bao_reader_length(r, &length, NULL) == 0 && length == len);
  CHECK(read_all(r, out, 10000, &total, NULL) == 0);
  CHECK(total == len && memcmp(out, input, len) == 0);
  fastblake_bao_reader_seek(r, 300000);
  size_t n = 0;
  CHECK(fastblake_bao_reader_read(r, out, 5, &n, NULL) == 0 && n == 5);
  CHECK(memcmp(out, input + 300000, 5) == 0 && fastblake_bao_reader_position(r) == 300005);
  fastblake_bao_reader_free(r);
  /* Beside the outboard. */
  CHECK(fastblake_bao_reader_new(hash, read_memory, &o, read_memory, &d, 0, &r) == 0);
  CHECK(read_all(r, out, 65536, &total, NULL) == 0);
  CHECK(total == len && memcmp(out, input, len) == 0);
  fastblake_bao_reader_free(r);
  /* A corrupted chunk: the bytes before it, then its status and offset, as decode's. */
  encoded[encoded_size / 2] ^= 1;
  uint64_t want_offset = 0;
  CHECK(fastblake_bao_decode(hash, encoded, encoded_size, NULL, 0, 0, out, len, &n, &want_offset) ==
        FASTBLAKE_EBAO_MISMATCH);
  CHECK(fastblake_bao_reader_new(hash, read_memory, &e, NULL, NULL, 0, &r) == 0);
  CHECK(read_all(r, out, 10000, &total, &offset) == FASTBLAKE_EBAO_MISMATCH);
  CHECK(offset == want_offset && total > 0 && total < len && memcmp(out, input, total) == 0);
  fastblake_bao_reader_free(r);
  encoded[encoded_size / 2] ^= 1;
  /* A read function's errno. */
  e.fail_at = 400000;
  CHECK(fastblake_bao_reader_new(hash, read_memory, &e, NULL, NULL, 0, &r) == 0);
  CHECK(read_all(r, out, 10000, &total, NULL) == EIO);
  CHECK(total > 0 && memcmp(out, input, total) == 0);
  fastblake_bao_reader_free(r);
  CHECK(fastblake_bao_reader_new(hash, NULL, NULL, NULL, NULL, 0, &r) == EINVAL);
  CHECK(fastblake_bao_reader_new(hash, read_memory, &e, NULL, NULL, 33, &r) == EINVAL);

  /* Through files: encoded from a descriptor into one, read back through descriptors. */
  char dir[] = "/tmp/fastblake-c-bao-XXXXXX";
  if (mkdtemp(dir) == NULL) {
    ++failures;
  } else {
    char in_path[256], out_path[256];
    snprintf(in_path, sizeof in_path, "%s/in", dir);
    snprintf(out_path, sizeof out_path, "%s/out", dir);
    const int in_fd = open(in_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    const int out_fd = open(out_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    CHECK(in_fd >= 0 && out_fd >= 0 && write(in_fd, input, len) == (ssize_t)len);
    uint8_t from_fd[32];
    CHECK(fastblake_bao_encode_fd(in_fd, len, FASTBLAKE_BAO_OUTBOARD, 0, out_fd, from_fd, NULL) ==
          0);
    CHECK(memcmp(from_fd, hash, 32) == 0);
    CHECK(pread(out_fd, out, outboard_size + 1, 0) == (ssize_t)outboard_size);
    CHECK(memcmp(out, outboard, outboard_size) == 0);
    CHECK(fastblake_bao_reader_open(hash, out_fd, in_fd, 0, &r) == 0);
    CHECK(read_all(r, out, 100000, &total, NULL) == 0);
    CHECK(total == len && memcmp(out, input, len) == 0);
    fastblake_bao_reader_free(r);
    CHECK(fastblake_bao_reader_open(hash, out_fd, in_fd, 0, &r) == 0);
    fastblake_bao_reader_use_pool(r);
    memset(out, 0, len);
    CHECK(read_all(r, out, 100000, &total, NULL) == 0);
    CHECK(total == len && memcmp(out, input, len) == 0);
    fastblake_bao_reader_free(r);
    CHECK(fastblake_bao_encode_fd(in_fd, len + 1, FASTBLAKE_BAO_COMBINED, 0, out_fd, from_fd,
                                  &offset) == FASTBLAKE_EBAO_TRUNCATED);
    CHECK(offset == len);
    CHECK(fastblake_bao_encode_fd(in_fd, len, 9, 0, out_fd, from_fd, NULL) == EINVAL);
    /* A file by its path, as the file functions read it, each strategy. */
    uint8_t* written = malloc(encoded_size + 1);
    CHECK(written != NULL);
    for (int strategy = FASTBLAKE_FILE_AUTOMATIC; strategy <= FASTBLAKE_FILE_STREAM; ++strategy) {
      CHECK(ftruncate(out_fd, 0) == 0);
      memset(from_fd, 0, sizeof from_fd);
      CHECK(fastblake_bao_encode_file(in_path, FASTBLAKE_BAO_COMBINED, 0, strategy, out_fd,
                                      from_fd) == 0);
      CHECK(memcmp(from_fd, hash, 32) == 0);
      CHECK(pread(out_fd, written, encoded_size + 1, 0) == (ssize_t)encoded_size);
      CHECK(memcmp(written, encoded, encoded_size) == 0);
    }
    CHECK(fastblake_bao_encode_file(in_path, FASTBLAKE_BAO_OUTBOARD, 0, FASTBLAKE_FILE_AUTOMATIC,
                                    out_fd, from_fd) == 0);
    CHECK(pread(out_fd, written, outboard_size, 0) == (ssize_t)outboard_size);
    CHECK(memcmp(written, outboard, outboard_size) == 0);
    free(written);
    CHECK(fastblake_bao_encode_file(dir, FASTBLAKE_BAO_OUTBOARD, 0, FASTBLAKE_FILE_AUTOMATIC,
                                    out_fd, from_fd) == EISDIR);
    CHECK(fastblake_bao_encode_file(out_path, 2, 0, FASTBLAKE_FILE_AUTOMATIC, out_fd, from_fd) ==
          EINVAL);
    CHECK(fastblake_bao_encode_file(in_path, FASTBLAKE_BAO_COMBINED, 0, 99, out_fd, from_fd) ==
          EINVAL);
    CHECK(fastblake_bao_encode_file("/nonexistent/fastblake", FASTBLAKE_BAO_COMBINED, 0,
                                    FASTBLAKE_FILE_AUTOMATIC, out_fd, from_fd) == ENOENT);
    close(in_fd);
    close(out_fd);
    unlink(in_path);
    unlink(out_path);
    rmdir(dir);
  }
  free(input);
  free(out);
  free(encoded);
  free(outboard);
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

/* A growing output in memory for the stream encoder; writes fail with ENOSPC from fail_at on,
 * if set. */
struct memory_output {
  uint8_t* bytes;
  size_t size;
  uint64_t fail_at;
};

static int write_memory(void* context, uint64_t offset, const void* buf, size_t len) {
  struct memory_output* m = context;
  if (m->fail_at != 0 && offset + len > m->fail_at) {
    errno = ENOSPC;
    return -1;
  }
  if (offset + len > m->size) {
    uint8_t* grown = realloc(m->bytes, (size_t)offset + len);
    if (grown == NULL) {
      errno = ENOMEM;
      return -1;
    }
    memset(grown + m->size, 0, (size_t)offset + len - m->size);
    m->bytes = grown;
    m->size = (size_t)offset + len;
  }
  memcpy(m->bytes + offset, buf, len);
  return 0;
}

static long long read_output(void* context, uint64_t offset, void* buf, size_t len) {
  struct memory_output* m = context;
  struct memory_source source = {m->bytes, m->size, 0};
  return read_memory(&source, offset, buf, len);
}

/* A slice written through a write function as fastblake_bao_extract_slice cuts it, from the
 * encoding and from the outboard; a reader over it hands out its bytes, refuses positions
 * before it (ERANGE) and names a corrupted node as fastblake_bao_decode_slice does. */
static void test_bao_slice_reader(void) {
  const size_t len = 700 * 1024 + 5, start = 100000, count = 300000;
  uint8_t* input = malloc(len);
  uint8_t* out = malloc(len);
  bao_input(input, len);
  const size_t encoded_size = (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_COMBINED, 2);
  const size_t outboard_size = (size_t)fastblake_bao_encoded_size(len, FASTBLAKE_BAO_OUTBOARD, 2);
  uint8_t* encoded = malloc(encoded_size);
  uint8_t* outboard = malloc(outboard_size);
  uint8_t* slice = malloc(encoded_size);
  uint8_t hash[32];
  CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_COMBINED, 2, encoded, encoded_size, hash) ==
        0);
  CHECK(fastblake_bao_encode(input, len, FASTBLAKE_BAO_OUTBOARD, 2, outboard, outboard_size,
                             hash) == 0);
  size_t slice_size = 0;
  CHECK(fastblake_bao_extract_slice(encoded, encoded_size, NULL, 0, start, count, 2, slice,
                                    encoded_size, &slice_size, NULL) == 0);
  struct memory_source e = {encoded, encoded_size, 0}, o = {outboard, outboard_size, 0},
                       d = {input, len, 0};
  for (int beside = 0; beside < 2; ++beside) {
    struct memory_output m = {NULL, 0, 0};
    uint64_t written = 0;
    CHECK(fastblake_bao_extract_slice_to(read_memory, beside ? (void*)&o : (void*)&e,
                                         beside ? read_memory : NULL, &d, start, count, 2,
                                         write_memory, &m, &written, NULL) == 0);
    CHECK(written == slice_size && m.size == slice_size && memcmp(m.bytes, slice, slice_size) == 0);
    free(m.bytes);
  }
  struct memory_output full = {NULL, 0, 1000};
  CHECK(fastblake_bao_extract_slice_to(read_memory, &e, NULL, NULL, start, count, 2, write_memory,
                                       &full, NULL, NULL) == ENOSPC);
  free(full.bytes);
  struct memory_source s = {slice, slice_size, 0};
  fastblake_bao_reader* r = NULL;
  size_t total = 0, n = 0;
  uint64_t offset = 0, length = 0;
  CHECK(fastblake_bao_reader_new_slice(hash, read_memory, &s, start, count, 2, &r) == 0);
  CHECK(fastblake_bao_reader_position(r) == start);
  CHECK(read_all(r, out, 7000, &total, NULL) == 0);
  CHECK(total == count && memcmp(out, input + start, count) == 0);
  CHECK(fastblake_bao_reader_length(r, &length, NULL) == ERANGE);
  fastblake_bao_reader_seek(r, start - 1);
  CHECK(fastblake_bao_reader_read(r, out, 1, &n, NULL) == ERANGE);
  fastblake_bao_reader_free(r);
  slice[slice_size / 2] ^= 1;
  uint64_t want_offset = 0;
  CHECK(fastblake_bao_decode_slice(hash, slice, slice_size, start, count, 2, out, len, &n,
                                   &want_offset) == FASTBLAKE_EBAO_MISMATCH);
  CHECK(fastblake_bao_reader_new_slice(hash, read_memory, &s, start, count, 2, &r) == 0);
  CHECK(read_all(r, out, 7000, &total, &offset) == FASTBLAKE_EBAO_MISMATCH);
  CHECK(offset == want_offset && total < count && memcmp(out, input + start, total) == 0);
  fastblake_bao_reader_free(r);
  CHECK(fastblake_bao_reader_new_slice(hash, NULL, NULL, 0, 1, 0, &r) == EINVAL);
  CHECK(fastblake_bao_extract_slice_to(read_memory, &e, NULL, NULL, 0, 1, 0, NULL, NULL, NULL,
                                       NULL) == EINVAL);
  free(input);
  free(out);
  free(encoded);
  free(outboard);
  free(slice);
}

static void test_bao_stream(void) {
  const size_t len = (9u << 20) + 1025;
  uint8_t* input = malloc(len);
  bao_input(input, len);
  uint8_t* want[3];
  size_t want_size[3];
  uint8_t hash[32], got_hash[32];
  for (int format = FASTBLAKE_BAO_COMBINED; format <= FASTBLAKE_BAO_POST_ORDER_OUTBOARD; ++format) {
    want_size[format] = (size_t)fastblake_bao_encoded_size(len, format, 2);
    want[format] = malloc(want_size[format]);
    CHECK(fastblake_bao_encode(input, len, format, 2, want[format], want_size[format], hash) == 0);
    struct memory_output m = {NULL, 0, 0};
    fastblake_bao_encoder* e = NULL;
    CHECK(fastblake_bao_encoder_new(read_output, write_memory, &m, format, 2, &e) == 0);
    for (size_t done = 0; done < len; done += 100000) {
      CHECK(fastblake_bao_encoder_update(e, input + done,
                                         len - done < 100000 ? len - done : 100000) == 0);
    }
    CHECK(fastblake_bao_encoder_finalize(e, got_hash) == 0);
    CHECK(memcmp(got_hash, hash, 32) == 0);
    CHECK(m.size == want_size[format] && memcmp(m.bytes, want[format], m.size) == 0);
    CHECK(fastblake_bao_encoder_update(e, input, 1) == EINVAL);
    CHECK(fastblake_bao_encoder_finalize(e, got_hash) == EINVAL);
    fastblake_bao_encoder_free(e);
    free(m.bytes);
  }
  /* The two outboards, each as the other. */
  const size_t outboard_size = want_size[FASTBLAKE_BAO_OUTBOARD];
  uint8_t* converted = malloc(outboard_size);
  size_t n = 0;
  uint64_t offset = 0;
  CHECK(fastblake_bao_convert_outboard(want[FASTBLAKE_BAO_POST_ORDER_OUTBOARD], outboard_size,
                                       FASTBLAKE_BAO_OUTBOARD, 2, converted, outboard_size, &n,
                                       NULL) == 0);
  CHECK(n == outboard_size && memcmp(converted, want[FASTBLAKE_BAO_OUTBOARD], n) == 0);
  CHECK(fastblake_bao_convert_outboard(want[FASTBLAKE_BAO_OUTBOARD], outboard_size,
                                       FASTBLAKE_BAO_POST_ORDER_OUTBOARD, 2, converted,
                                       outboard_size, &n, NULL) == 0);
  CHECK(n == outboard_size && memcmp(converted, want[FASTBLAKE_BAO_POST_ORDER_OUTBOARD], n) == 0);
  CHECK(fastblake_bao_convert_outboard(want[FASTBLAKE_BAO_OUTBOARD], outboard_size,
                                       FASTBLAKE_BAO_POST_ORDER_OUTBOARD, 2, converted, 10, &n,
                                       NULL) == ERANGE &&
        n == outboard_size);
  CHECK(fastblake_bao_convert_outboard(want[FASTBLAKE_BAO_POST_ORDER_OUTBOARD], 100,
                                       FASTBLAKE_BAO_OUTBOARD, 2, converted, outboard_size, &n,
                                       &offset) == FASTBLAKE_EBAO_TRUNCATED &&
        offset == 100);
  CHECK(fastblake_bao_convert_outboard(want[FASTBLAKE_BAO_OUTBOARD], outboard_size,
                                       FASTBLAKE_BAO_COMBINED, 2, converted, outboard_size, &n,
                                       NULL) == EINVAL);
  free(converted);
  /* The post-order outboard of the input's first 5 MiB + 3, resumed and given the rest: the
   * whole one; refused against another hash, nothing written. */
  const size_t prefix = (5u << 20) + 3;
  struct memory_output resumed = {malloc(want_size[FASTBLAKE_BAO_POST_ORDER_OUTBOARD]), 0, 0};
  uint8_t prefix_hash[32];
  resumed.size = (size_t)fastblake_bao_encoded_size(prefix, FASTBLAKE_BAO_POST_ORDER_OUTBOARD, 2);
  CHECK(fastblake_bao_encode(input, prefix, FASTBLAKE_BAO_POST_ORDER_OUTBOARD, 2, resumed.bytes,
                             resumed.size, prefix_hash) == 0);
  struct memory_source before = {input, prefix, 0};
  fastblake_bao_encoder* more = NULL;
  CHECK(fastblake_bao_encoder_resume(read_output, write_memory, &resumed, prefix, read_memory,
                                     &before, hash, 2, &more, &offset) == FASTBLAKE_EBAO_MISMATCH);
  CHECK(fastblake_bao_encoder_resume(read_output, write_memory, &resumed, prefix + 1, read_memory,
                                     &before, prefix_hash, 2, &more, NULL) == EINVAL);
  CHECK(fastblake_bao_encoder_resume(read_output, write_memory, &resumed, prefix, read_memory,
                                     &before, prefix_hash, 2, &more, NULL) == 0);
  CHECK(fastblake_bao_encoder_update(more, input + prefix, len - prefix) == 0);
  CHECK(fastblake_bao_encoder_finalize(more, got_hash) == 0 && memcmp(got_hash, hash, 32) == 0);
  CHECK(resumed.size == want_size[FASTBLAKE_BAO_POST_ORDER_OUTBOARD] &&
        memcmp(resumed.bytes, want[FASTBLAKE_BAO_POST_ORDER_OUTBOARD], resumed.size) == 0);
  fastblake_bao_encoder_free(more);
  /* Read through a reader of the post-order outboard, beside the input. */
  struct memory_source post = {resumed.bytes, resumed.size, 0}, all = {input, len, 0};
  fastblake_bao_reader* reader = NULL;
  uint8_t* back = malloc(len);
  size_t total = 0;
  CHECK(fastblake_bao_reader_new_post_order(hash, read_memory, &post, resumed.size, read_memory,
                                            &all, 2, &reader) == 0);
  CHECK(read_all(reader, back, 1u << 20, &total, NULL) == 0);
  CHECK(total == len && memcmp(back, input, len) == 0);
  fastblake_bao_reader_free(reader);
  resumed.bytes[0] ^= 1;
  CHECK(fastblake_bao_reader_new_post_order(hash, read_memory, &post, resumed.size, read_memory,
                                            &all, 2, &reader) == 0);
  CHECK(read_all(reader, back, 1u << 20, &total, NULL) == FASTBLAKE_EBAO_MISMATCH);
  fastblake_bao_reader_free(reader);
  CHECK(fastblake_bao_reader_new_post_order(hash, read_memory, &post, resumed.size, NULL, NULL, 2,
                                            &reader) == EINVAL);
  free(back);
  free(resumed.bytes);
  CHECK(fastblake_bao_encoder_resume(NULL, write_memory, &resumed, 0, read_memory, &before,
                                     prefix_hash, 2, &more, NULL) == EINVAL);
  /* A write that fails: its errno, then EINVAL. */
  struct memory_output m = {NULL, 0, 1u << 20};
  fastblake_bao_encoder* e = NULL;
  CHECK(fastblake_bao_encoder_new(read_output, write_memory, &m, FASTBLAKE_BAO_COMBINED, 0, &e) ==
        0);
  CHECK(fastblake_bao_encoder_update(e, input, len) == ENOSPC);
  CHECK(fastblake_bao_encoder_update(e, input, 1) == EINVAL);
  fastblake_bao_encoder_free(e);
  free(m.bytes);
  CHECK(fastblake_bao_encoder_new(NULL, write_memory, &m, 0, 0, &e) == EINVAL);
  CHECK(fastblake_bao_encoder_new(read_output, write_memory, &m, 3, 0, &e) == EINVAL);
  CHECK(fastblake_bao_encoder_new(read_output, write_memory, &m, 0, 33, &e) == EINVAL);
  /* Into a file, read back by the reader. */
  char path[] = "/tmp/fastblake-c-bao-stream-XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) {
    CHECK(fastblake_bao_encoder_open(fd, FASTBLAKE_BAO_COMBINED, 0, &e) == 0);
    CHECK(fastblake_bao_encoder_update(e, input, len) == 0);
    CHECK(fastblake_bao_encoder_finalize(e, got_hash) == 0);
    fastblake_bao_encoder_free(e);
    fastblake_bao_reader* r = NULL;
    uint8_t* out = malloc(len + 1);
    total = 0;
    CHECK(fastblake_bao_reader_open(got_hash, fd, -1, 0, &r) == 0);
    CHECK(read_all(r, out, 1u << 20, &total, NULL) == 0);
    CHECK(total == len && memcmp(out, input, len) == 0);
    fastblake_bao_reader_free(r);
    free(out);
    /* A file appended to: its post-order outboard, in a file, resumed through descriptors. */
    char data_path[] = "/tmp/fastblake-c-bao-data-XXXXXX";
    const int data_fd = mkstemp(data_path);
    CHECK(data_fd >= 0 && ftruncate(fd, 0) == 0);
    if (data_fd >= 0) {
      CHECK(write(data_fd, input, len) == (ssize_t)len);
      CHECK(fastblake_bao_encoder_open(fd, FASTBLAKE_BAO_POST_ORDER_OUTBOARD, 2, &e) == 0);
      CHECK(fastblake_bao_encoder_update(e, input, prefix) == 0);
      CHECK(fastblake_bao_encoder_finalize(e, got_hash) == 0);
      fastblake_bao_encoder_free(e);
      CHECK(fastblake_bao_encoder_resume_fd(fd, data_fd, prefix, got_hash, 2, &e, NULL) == 0);
      CHECK(fastblake_bao_encoder_update(e, input + prefix, len - prefix) == 0);
      CHECK(fastblake_bao_encoder_finalize(e, got_hash) == 0 && memcmp(got_hash, hash, 32) == 0);
      fastblake_bao_encoder_free(e);
      const size_t size = want_size[FASTBLAKE_BAO_POST_ORDER_OUTBOARD];
      uint8_t* on_disk = malloc(size + 1);
      CHECK(pread(fd, on_disk, size + 1, 0) == (ssize_t)size &&
            memcmp(on_disk, want[FASTBLAKE_BAO_POST_ORDER_OUTBOARD], size) == 0);
      free(on_disk);
      close(data_fd);
      unlink(data_path);
    }
    close(fd);
    unlink(path);
  }
  for (int format = 0; format < 3; ++format) free(want[format]);
  free(input);
}

int main(void) {
  test_library();
  test_blake3_vectors();
  test_bao_vectors();
  test_bao_reader();
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
