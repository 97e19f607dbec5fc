/* What the parts of the C interface's test (c_api_test.c, bao_c_test.c, bao_stream_c_test.c)
 * share: the failure count and CHECK, inputs, and each part's tests. */
#ifndef FASTBLAKE_TESTS_C_CHECK_H
#define FASTBLAKE_TESTS_C_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The failures so far (c_api_test.c). */
extern int failures;

#define CHECK(condition)                                                      \
  do {                                                                        \
    if (!(condition)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

static inline void to_hex(const uint8_t* bytes, size_t n, char* out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  out[2 * n] = '\0';
}

static inline uint8_t* test_input(size_t n) {
  uint8_t* p = malloc(n == 0 ? 1 : n);
  for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)(i % 251);
  return p;
}

static const size_t sizes[] __attribute__((unused)) = {
    0, 1, 63, 64, 65, 1023, 1024, 1025, 3000, 65536, 200001, (1u << 20) + 3};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Bao (bao_c_test.c, bao_stream_c_test.c). */
void test_bao_vectors(void);
void test_bao_reader(void);
void test_bao_hostile(void);
void test_bao_stream(void);
void test_bao_slice_reader(void);

#endif
