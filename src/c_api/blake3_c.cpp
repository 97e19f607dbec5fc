// The C interface's BLAKE3 (include/fastblake/fastblake.h): hashing, hashers, the subtree API
// and files, over the C++ library.
#include <fastblake/fastblake.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include <fastblake/blake3.hpp>

#include "c_api/c_api.hpp"
#include "os/file.hpp"

namespace {

namespace b3 = fastblake::blake3;
using fastblake::c_api::bytes;
using fastblake::c_api::guarded;
using fastblake::c_api::out_bytes;
using fastblake::c_api::status_of;

// The C structs are storage for the C++ objects, constructed in place by the init functions.
static_assert(sizeof(b3::hasher) <= sizeof(fastblake_blake3_hasher));
static_assert(alignof(b3::hasher) <= alignof(fastblake_blake3_hasher));
static_assert(std::is_trivially_copyable_v<b3::hasher>,
              "C callers copy hashers with memcpy and never destroy them");

b3::hasher& hasher_of(fastblake_blake3_hasher* self) {
  return *std::launder(reinterpret_cast<b3::hasher*>(self->opaque));
}
const b3::hasher& hasher_of(const fastblake_blake3_hasher* self) {
  return *std::launder(reinterpret_cast<const b3::hasher*>(self->opaque));
}

b3::hazmat::chaining_value chaining_value_of(const uint8_t bytes_in[FASTBLAKE_BLAKE3_OUT_LEN]) {
  b3::hazmat::chaining_value cv;
  std::memcpy(cv.data(), bytes_in, cv.size());
  return cv;
}

void init(fastblake_blake3_hasher* self, const b3::hasher& h) {
  ::new (static_cast<void*>(self->opaque)) b3::hasher(h);
}

#if FASTBLAKE_C_FILES
int file_options(int strategy, b3::file_options& options) {
  switch (strategy) {
    case FASTBLAKE_FILE_AUTOMATIC:
      options.strategy = b3::file_strategy::automatic;
      return 0;
    case FASTBLAKE_FILE_READ:
      options.strategy = b3::file_strategy::read;
      return 0;
    case FASTBLAKE_FILE_MMAP:
      options.strategy = b3::file_strategy::mmap;
      return 0;
    case FASTBLAKE_FILE_MMAP_PARALLEL:
      options.strategy = b3::file_strategy::mmap_parallel;
      return 0;
    case FASTBLAKE_FILE_STREAM:
      options.strategy = b3::file_strategy::stream;
      return 0;
  }
  return EINVAL;
}

// Hashes a file or descriptor into a hasher: update(options, ec) with the strategy's options.
template <class Update>
int update_from_source(int strategy, Update update) noexcept {
  return guarded([&] {
    b3::file_options options;
    if (const int status = file_options(strategy, options)) return status;
    std::error_code ec;
    update(options, ec);
    return status_of(ec);
  });
}
#else
template <class Update>
int update_from_source(int, Update) noexcept {
  return ENOSYS;
}
#endif

}  // namespace

extern "C" {

// ---- BLAKE3 ----

void fastblake_blake3_hash(const void* input, size_t input_len,
                           uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]) {
  const b3::digest d = b3::hash(bytes(input, input_len));
  std::memcpy(out, d.data(), d.size());
}

void fastblake_blake3_hash_xof(const void* input, size_t input_len, uint8_t* out, size_t out_len) {
  b3::hasher h;
  h.update_parallel(bytes(input, input_len));
  guarded([&] {
    h.finalize(out_bytes(out, out_len));
    return 0;
  });
}

void fastblake_blake3_keyed_hash(const uint8_t key[FASTBLAKE_BLAKE3_KEY_LEN], const void* input,
                                 size_t input_len, uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]) {
  b3::key_type k;
  std::memcpy(k.data(), key, k.size());
  const b3::digest d = b3::keyed_hash(k, bytes(input, input_len));
  std::memcpy(out, d.data(), d.size());
}

void fastblake_blake3_derive_key(const char* context, const void* material, size_t material_len,
                                 uint8_t* out, size_t out_len) {
  b3::derive_key(context, bytes(material, material_len), out_bytes(out, out_len));
}

void fastblake_blake3_hasher_init(fastblake_blake3_hasher* self) { init(self, b3::hasher()); }

void fastblake_blake3_hasher_init_keyed(fastblake_blake3_hasher* self,
                                        const uint8_t key[FASTBLAKE_BLAKE3_KEY_LEN]) {
  b3::key_type k;
  std::memcpy(k.data(), key, k.size());
  init(self, b3::hasher::keyed(k));
}

void fastblake_blake3_hasher_init_derive_key(fastblake_blake3_hasher* self, const char* context) {
  init(self, b3::hasher::derive_key(context));
}

void fastblake_blake3_hasher_init_derive_key_raw(fastblake_blake3_hasher* self, const void* context,
                                                 size_t context_len) {
  init(self, b3::hasher::derive_key(std::string_view(
                 context_len == 0 ? "" : static_cast<const char*>(context), context_len)));
}

void fastblake_blake3_hasher_update(fastblake_blake3_hasher* self, const void* input,
                                    size_t input_len) {
  // update() throws only for a subtree hasher, which the C interface cannot make.
  guarded([&] {
    hasher_of(self).update(bytes(input, input_len));
    return 0;
  });
}

void fastblake_blake3_hasher_update_parallel(fastblake_blake3_hasher* self, const void* input,
                                             size_t input_len) {
  guarded([&] {
    hasher_of(self).update_parallel(bytes(input, input_len));
    return 0;
  });
}

void fastblake_blake3_hasher_finalize(const fastblake_blake3_hasher* self, uint8_t* out,
                                      size_t out_len) {
  guarded([&] {
    hasher_of(self).finalize(out_bytes(out, out_len));
    return 0;
  });
}

int fastblake_blake3_hasher_finalize_seek(const fastblake_blake3_hasher* self, uint64_t seek,
                                          uint8_t* out, size_t out_len) {
  return guarded([&] {
    b3::output_reader r = hasher_of(self).finalize_xof();
    r.seek(seek);
    r.fill(out_bytes(out, out_len));
    return 0;
  });
}

void fastblake_blake3_hasher_update_pool(fastblake_blake3_hasher* self, fastblake_thread_pool* pool,
                                         const void* input, size_t input_len) {
  guarded([&] {
    if (pool == nullptr) {
      hasher_of(self).update_parallel(bytes(input, input_len));
    } else {
      hasher_of(self).update_parallel(bytes(input, input_len),
                                      *reinterpret_cast<fastblake::thread_pool*>(pool));
    }
    return 0;
  });
}

void fastblake_blake3_hasher_reset(fastblake_blake3_hasher* self) { hasher_of(self).reset(); }

int fastblake_blake3_hash_many(const void* const* inputs, const size_t* lengths, size_t count,
                               const uint8_t* key, uint8_t* out) {
  return guarded([&] {
    std::vector<std::span<const std::byte>> spans(count);
    for (std::size_t i = 0; i < count; ++i) spans[i] = bytes(inputs[i], lengths[i]);
    std::vector<b3::digest> digests(count);
    if (key == nullptr) {
      b3::hash_many(spans, digests);
    } else {
      b3::key_type k;
      std::memcpy(k.data(), key, k.size());
      b3::keyed_hash_many(k, spans, digests);
    }
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out + 32 * i, digests[i].data(), 32);
    return 0;
  });
}

// ---- BLAKE3's subtree API ----

int fastblake_blake3_hasher_set_input_offset(fastblake_blake3_hasher* self, uint64_t offset) {
  return guarded([&] {
    try {
      b3::hazmat::set_input_offset(hasher_of(self), offset);
    } catch (const std::logic_error&) {
      return EINVAL;
    }
    return 0;
  });
}

int fastblake_blake3_hasher_update_subtree(fastblake_blake3_hasher* self, const void* input,
                                           size_t input_len) {
  return guarded([&] {
    try {
      hasher_of(self).update(bytes(input, input_len));
    } catch (const std::logic_error&) {
      return EINVAL;
    }
    return 0;
  });
}

int fastblake_blake3_hasher_finalize_non_root(const fastblake_blake3_hasher* self,
                                              uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]) {
  return guarded([&] {
    try {
      const b3::hazmat::chaining_value cv = b3::hazmat::finalize_non_root(hasher_of(self));
      std::memcpy(out, cv.data(), cv.size());
    } catch (const std::logic_error&) {
      return EINVAL;
    }
    return 0;
  });
}

void fastblake_blake3_merge_subtrees_non_root(const fastblake_blake3_hasher* mode,
                                              const uint8_t left[FASTBLAKE_BLAKE3_OUT_LEN],
                                              const uint8_t right[FASTBLAKE_BLAKE3_OUT_LEN],
                                              uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]) {
  const b3::hazmat::chaining_value cv = b3::hazmat::merge_subtrees_non_root(
      chaining_value_of(left), chaining_value_of(right), b3::hazmat::mode::of(hasher_of(mode)));
  std::memcpy(out, cv.data(), cv.size());
}

void fastblake_blake3_merge_subtrees_root(const fastblake_blake3_hasher* mode,
                                          const uint8_t left[FASTBLAKE_BLAKE3_OUT_LEN],
                                          const uint8_t right[FASTBLAKE_BLAKE3_OUT_LEN],
                                          uint64_t seek, uint8_t* out, size_t out_len) {
  guarded([&] {
    b3::output_reader r = b3::hazmat::merge_subtrees_root_xof(
        chaining_value_of(left), chaining_value_of(right), b3::hazmat::mode::of(hasher_of(mode)));
    r.seek(seek);
    r.fill(out_bytes(out, out_len));
    return 0;
  });
}

uint64_t fastblake_blake3_left_subtree_len(uint64_t input_len) {
  return input_len <= FASTBLAKE_BLAKE3_CHUNK_LEN ? 0 : b3::hazmat::left_subtree_len(input_len);
}

uint64_t fastblake_blake3_max_subtree_len(uint64_t offset) {
  if (offset % FASTBLAKE_BLAKE3_CHUNK_LEN != 0) return 0;
  return b3::hazmat::max_subtree_len(offset).value_or(UINT64_MAX);
}

uint64_t fastblake_blake3_hasher_count(const fastblake_blake3_hasher* self) {
  return hasher_of(self).count();
}

// ---- Files ----

int fastblake_blake3_hasher_update_file(fastblake_blake3_hasher* self, const char* path,
                                        int strategy) {
  return update_from_source(strategy, [&](const auto& options, std::error_code& ec) {
    b3::update_from_file(hasher_of(self), fastblake::internal::os::path_from_utf8(path), options,
                         ec);
  });
}

int fastblake_blake3_hasher_update_fd(fastblake_blake3_hasher* self, int fd, int strategy) {
  return update_from_source(strategy, [&](const auto& options, std::error_code& ec) {
    b3::update_from_fd(hasher_of(self), fd, options, ec);
  });
}

int fastblake_blake3_hash_file(const char* path, uint8_t out[FASTBLAKE_BLAKE3_OUT_LEN]) {
  fastblake_blake3_hasher h;
  fastblake_blake3_hasher_init(&h);
  const int status = fastblake_blake3_hasher_update_file(&h, path, FASTBLAKE_FILE_AUTOMATIC);
  if (status == 0) fastblake_blake3_hasher_finalize(&h, out, FASTBLAKE_BLAKE3_OUT_LEN);
  return status;
}

}  // extern "C"
