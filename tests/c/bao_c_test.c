/* The C interface to Bao: its own vectors (as the C++ test runs them), the reader over read
 * functions and descriptors, and hostile headers and sizes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fastblake/fastblake.h>

#include "bao_support.h"
#include "expected.h"
#include "os_support.h"

void test_bao_vectors(void) {
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

void test_bao_reader(void) {
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
  char dir[512];
  temp_pattern(dir, sizeof dir, "fastblake-c-bao-XXXXXX");
  if (make_temp_dir(dir) == NULL) {
    ++failures;
  } else {
    char in_path[600], out_path[600];
    snprintf(in_path, sizeof in_path, "%s/in", dir);
    snprintf(out_path, sizeof out_path, "%s/out", dir);
    const int in_fd = test_open(in_path, O_RDWR | O_CREAT | O_TRUNC);
    const int out_fd = test_open(out_path, O_RDWR | O_CREAT | O_TRUNC);
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

/* A 108-byte encoding whose header claims up to 2^64 - 1 bytes, at every group size, through
 * the in-memory decoder and the readers (combined, outboard, slice): each fails, and memory
 * follows the bytes given, never the length claimed. Sizes past 2^64 - 1 are 0. An encoding
 * of a file into the file itself is refused before anything is written. */
void test_bao_hostile(void) {
  CHECK(fastblake_bao_encoded_size(UINT64_MAX, FASTBLAKE_BAO_COMBINED, 0) == 0);
  CHECK(fastblake_bao_encoded_size(UINT64_MAX - 1, FASTBLAKE_BAO_COMBINED, 32) == 0);
  CHECK(fastblake_bao_encoded_size(UINT64_MAX, FASTBLAKE_BAO_OUTBOARD, 0) ==
        8 + ((UINT64_MAX - 1) / 1024) * 64);
  CHECK(fastblake_bao_encoded_size(UINT64_MAX, FASTBLAKE_BAO_POST_ORDER_OUTBOARD, 32) ==
        8 + ((UINT64_MAX - 1) / (1024ull << 32)) * 64);

  static const uint64_t claims[] = {1ull << 30, 16ull << 30, 1ull << 63, UINT64_MAX};
  uint8_t bytes[108], hash[32] = {0}, out[4096];
  memset(bytes, 0x5a, sizeof bytes);
  const long before = peak_kib();
  for (size_t c = 0; c < COUNT(claims); ++c) {
    for (unsigned k = 0; k <= 32; k += 4) {
      for (int i = 0; i < 8; ++i) bytes[i] = (uint8_t)(claims[c] >> (8 * i));
      size_t out_len = 0;
      uint64_t offset = 0;
      const int decoded = fastblake_bao_decode(hash, bytes, sizeof bytes, NULL, 0, k, out,
                                               sizeof out, &out_len, &offset);
      CHECK(decoded == FASTBLAKE_EBAO_MISMATCH || decoded == FASTBLAKE_EBAO_TRUNCATED);
      struct memory_source tree = {bytes, sizeof bytes, 0}, data = {bytes + 8, 100, 0};
      for (int kind = 0; kind < 3; ++kind) {
        fastblake_bao_reader* r = NULL;
        const int made =
            kind == 2
                ? fastblake_bao_reader_new_slice(hash, read_memory, &tree, 0, UINT64_MAX, k, &r)
                : fastblake_bao_reader_new(hash, read_memory, &tree, kind == 1 ? read_memory : NULL,
                                           kind == 1 ? &data : NULL, k, &r);
        CHECK(made == 0);
        if (made != 0) continue;
        fastblake_bao_reader_use_pool(r);
        const int read = fastblake_bao_reader_read(r, out, sizeof out, &out_len, &offset);
        CHECK(read == FASTBLAKE_EBAO_MISMATCH || read == FASTBLAKE_EBAO_TRUNCATED);
        fastblake_bao_reader_free(r);
      }
    }
  }
  /* (A regression reads the claimed gigabytes into memory: 64 MiB is far above the reader's
   * buffers, far below the smallest claim.) */
  CHECK(peak_kib() - before < 64 * 1024);

  char path[512];
  temp_pattern(path, sizeof path, "fastblake-c-bao-XXXXXX");
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  CHECK(write(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes);
  uint8_t root[32];
  CHECK(fastblake_bao_encode_file(path, FASTBLAKE_BAO_COMBINED, 0, 0, fd, root) == EINVAL);
  struct stat st;
  CHECK(fstat(fd, &st) == 0 && st.st_size == (long long)sizeof bytes);
  uint8_t back[sizeof bytes];
  CHECK(pread(fd, back, sizeof back, 0) == (ssize_t)sizeof back &&
        memcmp(back, bytes, sizeof back) == 0);
  close(fd);
  unlink(path);
}
