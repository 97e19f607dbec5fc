// The C interface (include/fastblake/fastblake.h) over the C++ library. Every function catches
// what the C++ side may throw and turns it into a status: nothing crosses into C.
#include <fastblake/fastblake.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <type_traits>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include <variant>
#include <vector>

#include "blake3/offload.hpp"
#if defined(__unix__) || defined(__APPLE__)
#include <fastblake/file.hpp>
#define FASTBLAKE_C_FILES 1
#endif

namespace {

namespace b2 = fastblake::blake2;
namespace b3 = fastblake::blake3;

// The C structs are storage for the C++ objects, constructed in place by the init functions.
static_assert(sizeof(b3::hasher) <= sizeof(fastblake_blake3_hasher));
static_assert(alignof(b3::hasher) <= alignof(fastblake_blake3_hasher));
static_assert(std::is_trivially_copyable_v<b3::hasher>,
              "C callers copy hashers with memcpy and never destroy them");

// A C BLAKE2 state: one of the four b2sum algorithms, or BLAKE2X.
using c_blake2_state =
    std::variant<b2::hasher, b2::xof_state<b2::family::b>, b2::xof_state<b2::family::s>>;
static_assert(sizeof(c_blake2_state) <= sizeof(fastblake_blake2_state));
static_assert(alignof(c_blake2_state) <= alignof(fastblake_blake2_state));
static_assert(std::is_trivially_copyable_v<c_blake2_state>,
              "C callers copy states with memcpy and never destroy them");

b3::hasher& hasher_of(fastblake_blake3_hasher* self) {
  return *std::launder(reinterpret_cast<b3::hasher*>(self->opaque));
}
const b3::hasher& hasher_of(const fastblake_blake3_hasher* self) {
  return *std::launder(reinterpret_cast<const b3::hasher*>(self->opaque));
}
c_blake2_state& state_of(fastblake_blake2_state* self) {
  return *std::launder(reinterpret_cast<c_blake2_state*>(self->opaque));
}
const c_blake2_state& state_of(const fastblake_blake2_state* self) {
  return *std::launder(reinterpret_cast<const c_blake2_state*>(self->opaque));
}

std::span<const std::byte> bytes(const void* data, std::size_t size) {
  // A null pointer is allowed for an empty input, as memcpy's callers expect.
  return size == 0 ? std::span<const std::byte>()
                   : std::span(static_cast<const std::byte*>(data), size);
}
std::span<std::byte> out_bytes(std::uint8_t* out, std::size_t size) {
  return size == 0 ? std::span<std::byte>() : std::as_writable_bytes(std::span(out, size));
}

b3::hazmat::chaining_value chaining_value_of(const uint8_t bytes_in[FASTBLAKE_BLAKE3_OUT_LEN]) {
  b3::hazmat::chaining_value cv;
  std::memcpy(cv.data(), bytes_in, cv.size());
  return cv;
}

void init(fastblake_blake3_hasher* self, const b3::hasher& h) {
  ::new (static_cast<void*>(self->opaque)) b3::hasher(h);
}

// What a status code says, for errors the C++ side reports.
int status_of(const std::error_code& ec) {
  if (!ec) return 0;
#if FASTBLAKE_C_FILES
  if (ec == b3::file_errc::truncated) return FASTBLAKE_ETRUNCATED;
#endif
  if (ec.category() == std::generic_category() || ec.category() == std::system_category()) {
    return ec.value();
  }
  return EIO;
}

// Runs f, turning what the C++ side throws into a status.
template <class F>
int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::invalid_argument&) {
    return EINVAL;
  } catch (const std::out_of_range&) {
    return FASTBLAKE_EOUTPUT_RANGE;
  } catch (const std::bad_alloc&) {
    return ENOMEM;
  } catch (const std::system_error& e) {
    return status_of(e.code());
  } catch (...) {
    return EIO;
  }
}

template <b2::family F>
b2::params<F> sequential_params(const fastblake_blake2_params& p) {
  b2::params<F> out;
  if (p.hash_length != 0) out.hash_length(p.hash_length);
  out.key(bytes(p.key, p.key_length))
      .salt(bytes(p.salt, p.salt_length))
      .personal(bytes(p.personal, p.personal_length))
      .fanout(p.fanout)
      .max_depth(p.max_depth)
      .max_leaf_length(p.max_leaf_length)
      .node_offset(p.node_offset)
      .node_depth(p.node_depth)
      .inner_hash_length(p.inner_hash_length)
      .last_node(p.last_node != 0);
  return out;
}

// BLAKE2bp and BLAKE2sp fix the tree: only the length and the key may differ from the defaults.
template <b2::family F>
b2::parallel_params<F> parallel_params(const fastblake_blake2_params& p) {
  fastblake_blake2_params defaults;
  fastblake_blake2_params_init(&defaults);
  if (p.salt_length != 0 || p.personal_length != 0 || p.fanout != defaults.fanout ||
      p.max_depth != defaults.max_depth || p.max_leaf_length != 0 || p.node_offset != 0 ||
      p.node_depth != 0 || p.inner_hash_length != 0 || p.last_node != 0) {
    throw std::invalid_argument("BLAKE2bp and BLAKE2sp take a hash length and a key only");
  }
  b2::parallel_params<F> out;
  if (p.hash_length != 0) out.hash_length(p.hash_length);
  out.key(bytes(p.key, p.key_length));
  return out;
}

// BLAKE2X takes a length, a key, a salt and a personalisation: no tree parameters.
template <b2::family F>
b2::xof_state<F> xof_state_of(const fastblake_blake2_params& p) {
  fastblake_blake2_params defaults;
  fastblake_blake2_params_init(&defaults);
  if (p.fanout != defaults.fanout || p.max_depth != defaults.max_depth || p.max_leaf_length != 0 ||
      p.node_offset != 0 || p.node_depth != 0 || p.inner_hash_length != 0 || p.last_node != 0) {
    throw std::invalid_argument("BLAKE2X takes a length, key, salt and personalisation only");
  }
  b2::xof_params<F> out;
  if (p.hash_length != 0) out.hash_length(p.hash_length);
  out.key(bytes(p.key, p.key_length))
      .salt(bytes(p.salt, p.salt_length))
      .personal(bytes(p.personal, p.personal_length));
  return out.to_state();
}

c_blake2_state make_state(int algorithm, const fastblake_blake2_params* given) {
  fastblake_blake2_params p;
  fastblake_blake2_params_init(&p);
  if (given != nullptr) p = *given;
  switch (algorithm) {
    case FASTBLAKE_BLAKE2XB:
      return xof_state_of<b2::family::b>(p);
    case FASTBLAKE_BLAKE2XS:
      return xof_state_of<b2::family::s>(p);
    case FASTBLAKE_BLAKE2B:
      return sequential_params<b2::family::b>(p).to_state();
    case FASTBLAKE_BLAKE2S:
      return sequential_params<b2::family::s>(p).to_state();
    case FASTBLAKE_BLAKE2BP:
      return parallel_params<b2::family::b>(p).to_state();
    case FASTBLAKE_BLAKE2SP:
      return parallel_params<b2::family::s>(p).to_state();
  }
  throw std::invalid_argument("unknown BLAKE2 algorithm");
}

std::uint64_t hash_length_of(const c_blake2_state& state) {
  return std::visit([](const auto& s) -> std::uint64_t { return s.hash_length(); }, state);
}

// Bytes [offset, offset + out.size()) of the hash; throws std::out_of_range past its end.
void finalize_range(const c_blake2_state& state, std::uint64_t offset, std::span<std::byte> out) {
  const std::uint64_t length = hash_length_of(state);
  if (offset > length || out.size() > length - offset) {
    throw std::out_of_range("past the end of the hash");
  }
  if (const auto* x = std::get_if<b2::hasher>(&state)) {
    const b2::any_digest d = x->finalize();
    std::memcpy(out.data(), d.data() + offset, out.size());
  } else {
    std::visit(
        [&](const auto& s) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(s)>, b2::hasher>) {
            s.finalize(out, offset);
          }
        },
        state);
  }
}

std::size_t finalize_into(const c_blake2_state& state, std::uint8_t* out) {
  const auto length = static_cast<std::size_t>(hash_length_of(state));
  finalize_range(state, 0, out_bytes(out, length));
  return length;
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

const char* fastblake_version(void) { return FASTBLAKE_VERSION_STRING; }

const char* fastblake_active_backend(void) {
  // Backend names are string literals: NUL-terminated.
  return fastblake::active_backend().data();
}

size_t fastblake_available_backends(const char** names, size_t capacity) {
  std::vector<std::string_view> available;
  try {
    available = fastblake::available_backends();
  } catch (...) {
    return 0;
  }
  for (std::size_t i = 0; i < available.size() && i < capacity; ++i) {
    names[i] = available[i].data();  // string literals: NUL-terminated
  }
  return available.size();
}

int fastblake_use_backend(const char* name) {
  return name != nullptr && fastblake::use_backend(name) ? 0 : EINVAL;
}

const char* fastblake_backend_override_error(void) {
  // A static string that lives until the next override, as backend_override_error's view.
  return fastblake::backend_override_error().data();
}

const char* fastblake_active_blake2_kernels(void) {
  return fastblake::active_blake2_kernels().data();
}

size_t fastblake_default_threads(void) { return fastblake::thread_pool::default_threads(); }

fastblake_thread_pool* fastblake_thread_pool_new(size_t threads) {
  try {
    return reinterpret_cast<fastblake_thread_pool*>(new fastblake::thread_pool(threads));
  } catch (const std::system_error& e) {
    errno = e.code().value() == static_cast<int>(std::errc::invalid_argument) ? EINVAL : EAGAIN;
  } catch (const std::bad_alloc&) {
    errno = ENOMEM;
  } catch (...) {
    errno = EAGAIN;
  }
  return nullptr;
}

void fastblake_thread_pool_free(fastblake_thread_pool* pool) {
  delete reinterpret_cast<fastblake::thread_pool*>(pool);
}

size_t fastblake_thread_pool_size(const fastblake_thread_pool* pool) {
  return reinterpret_cast<const fastblake::thread_pool*>(pool)->size();
}

const char* fastblake_strerror(int status) {
  switch (status) {
    case 0:
      return "success";
    case FASTBLAKE_ETRUNCATED:
      return "the file shrank while it was being hashed";
    case FASTBLAKE_EOUTPUT_RANGE:
      return "the output would pass its end";
    default:
      return status > 0 ? std::strerror(status) : "unknown fastblake status";
  }
}

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
  const b3::hazmat::chaining_value cv =
      b3::hazmat::merge_subtrees_non_root(chaining_value_of(left), chaining_value_of(right),
                                          b3::detail::internal_access::mode_of(hasher_of(mode)));
  std::memcpy(out, cv.data(), cv.size());
}

void fastblake_blake3_merge_subtrees_root(const fastblake_blake3_hasher* mode,
                                          const uint8_t left[FASTBLAKE_BLAKE3_OUT_LEN],
                                          const uint8_t right[FASTBLAKE_BLAKE3_OUT_LEN],
                                          uint64_t seek, uint8_t* out, size_t out_len) {
  guarded([&] {
    b3::output_reader r =
        b3::hazmat::merge_subtrees_root_xof(chaining_value_of(left), chaining_value_of(right),
                                            b3::detail::internal_access::mode_of(hasher_of(mode)));
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
    b3::update_from_file(hasher_of(self), path, options, ec);
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

// ---- BLAKE2 ----

void fastblake_blake2_params_init(fastblake_blake2_params* params) {
  *params = fastblake_blake2_params{};
  params->fanout = 1;
  params->max_depth = 1;
}

int fastblake_blake2(int algorithm, const fastblake_blake2_params* params, const void* input,
                     size_t input_len, uint8_t* out) {
  return guarded([&] {
    c_blake2_state state = make_state(algorithm, params);
    std::visit([&](auto& x) { x.update(bytes(input, input_len)); }, state);
    finalize_into(state, out);
    return 0;
  });
}

int fastblake_blake2_init(fastblake_blake2_state* self, int algorithm,
                          const fastblake_blake2_params* params) {
  return guarded([&] {
    ::new (static_cast<void*>(self->opaque)) c_blake2_state(make_state(algorithm, params));
    return 0;
  });
}

void fastblake_blake2_update(fastblake_blake2_state* self, const void* input, size_t input_len) {
  std::visit([&](auto& s) { s.update(bytes(input, input_len)); }, state_of(self));
}

size_t fastblake_blake2_finalize(const fastblake_blake2_state* self, uint8_t* out) {
  std::size_t written = 0;
  guarded([&] {
    written = finalize_into(state_of(self), out);
    return 0;
  });
  return written;
}

int fastblake_blake2_finalize_range(const fastblake_blake2_state* self, uint64_t offset,
                                    uint8_t* out, size_t out_len) {
  return guarded([&] {
    try {
      finalize_range(state_of(self), offset, out_bytes(out, out_len));
    } catch (const std::out_of_range&) {
      return EINVAL;
    }
    return 0;
  });
}

int fastblake_blake2_hash_many(int algorithm, const fastblake_blake2_params* params,
                               const void* const* inputs, const size_t* lengths, size_t count,
                               uint8_t* out) {
  return guarded([&] {
    fastblake_blake2_params p;
    fastblake_blake2_params_init(&p);
    if (params != nullptr) p = *params;
    const auto run = [&](auto family_params) {
      using F = decltype(family_params);
      using digest = b2::digest<F::value>;
      const auto parameters = sequential_params<F::value>(p);
      std::vector<digest> digests(count);
      std::vector<b2::job<F::value>> jobs(count);
      for (std::size_t i = 0; i < count; ++i) {
        jobs[i] = {bytes(inputs[i], lengths[i]), &digests[i], &parameters};
      }
      b2::hash_many(std::span<const b2::job<F::value>>(jobs));
      for (std::size_t i = 0; i < count; ++i) {
        std::memcpy(out + i * digests[i].size(), digests[i].data(), digests[i].size());
      }
      return 0;
    };
    switch (algorithm) {
      case FASTBLAKE_BLAKE2B:
        return run(std::integral_constant<b2::family, b2::family::b>());
      case FASTBLAKE_BLAKE2S:
        return run(std::integral_constant<b2::family, b2::family::s>());
    }
    return EINVAL;
  });
}

}  // extern "C"
