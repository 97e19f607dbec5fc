/* What the Bao parts of the C interface's test share: Bao's vector input, hex, corruptions,
 * and encodings in memory read through C read functions. */
#ifndef FASTBLAKE_TESTS_C_BAO_SUPPORT_H
#define FASTBLAKE_TESTS_C_BAO_SUPPORT_H

#include <errno.h>
#include <string.h>

#include "check.h"

/* ---- Bao: its own vectors (tests/vectors/bao_vectors.txt), as the C++ test runs them ---- */

enum { bao_max = 64 * 1024 };

static inline void bao_input(uint8_t* out, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)((uint32_t)(i / 4 + 1) >> (8 * (i % 4)));
}

static inline void blake3_hex(const uint8_t* data, size_t len, char hex[65]) {
  uint8_t h[32];
  fastblake_blake3_hash(data, len, h);
  to_hex(h, 32, hex);
}

static inline int from_hex(const char* hex, uint8_t out[32]) {
  for (int i = 0; i < 32; ++i) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (uint8_t)v;
  }
  return 1;
}

/* Each number of a comma-separated list ("-": none) into out; returns how many. */
static inline size_t numbers(char* list, uint64_t* out, size_t max) {
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
static inline void bao_corrupted_fails(const uint8_t hash[32], const uint8_t* encoded, size_t len,
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

/* Memory read through a C read function; fails with EIO at fail_at and after, if set. */
struct memory_source {
  const uint8_t* bytes;
  size_t size;
  uint64_t fail_at;
};

static inline long long read_memory(void* context, uint64_t offset, void* buf, size_t len) {
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
static inline int read_all(fastblake_bao_reader* r, uint8_t* out, size_t piece, size_t* total,
                           uint64_t* offset) {
  *total = 0;
  for (;;) {
    size_t n = 0;
    const int status = fastblake_bao_reader_read(r, out + *total, piece, &n, offset);
    *total += n;
    if (status != 0 || n == 0) return status;
  }
}

#endif
