/* The C++ API's answers, for c_api_test.c (expected.cpp). */
#ifndef FASTBLAKE_TESTS_C_EXPECTED_H
#define FASTBLAKE_TESTS_C_EXPECTED_H

#include <stddef.h>
#include <stdint.h>

#include <fastblake/fastblake.h>

#ifdef __cplusplus
extern "C" {
#endif

const char* expected_version(void);
const char* expected_backend(void);
/* mode 0: hash, 1: keyed with key, 2: derive_key with the context; out_len bytes from seek. */
void expected_blake3(int mode, const uint8_t* key, const void* context, size_t context_len,
                     const void* input, size_t input_len, uint64_t seek, uint8_t* out,
                     size_t out_len);
/* algorithm as fastblake_blake2_algorithm; returns the hash's length. */
size_t expected_blake2(int algorithm, const fastblake_blake2_params* params, const void* input,
                       size_t input_len, uint8_t* out);

/* The chaining value of the subtree of input at byte `offset`, in mode 0, 1 or 2 (as above). */
void expected_subtree(int mode, const uint8_t* key, const char* context, const void* input,
                      size_t input_len, uint64_t offset, uint8_t out[32]);
/* BLAKE2Xb (b != 0) or BLAKE2Xs: `length` bytes with the key, salt and personalisation of
 * params. */
void expected_blake2x(int b, const fastblake_blake2_params* params, const void* input,
                      size_t input_len, uint64_t length, uint8_t* out);
/* The backends the C++ API reports, as one comma-separated static string. */
const char* expected_backends(void);

#ifdef __cplusplus
}
#endif

#endif
