/* The C interface to Bao's stream encoder and slice reader. */
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
void test_bao_slice_reader(void) {
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

void test_bao_stream(void) {
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
  char path[512];
  temp_pattern(path, sizeof path, "fastblake-c-bao-stream-XXXXXX");
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
    char data_path[512];
    temp_pattern(data_path, sizeof data_path, "fastblake-c-bao-data-XXXXXX");
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
