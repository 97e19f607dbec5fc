// The C interface's BLAKE2 (include/fastblake/fastblake.h): BLAKE2b, BLAKE2s, BLAKE2bp,
// BLAKE2sp and BLAKE2X with their parameters, one-shot, streaming and many messages, over the
// C++ library.
#include <fastblake/fastblake.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include <fastblake/blake2.hpp>

#include "c_api/c_api.hpp"

namespace {

namespace b2 = fastblake::blake2;
using fastblake::c_api::bytes;
using fastblake::c_api::guarded;
using fastblake::c_api::out_bytes;

// The C structs are storage for the C++ objects, constructed in place by the init functions.
// A C BLAKE2 state: one of the four b2sum algorithms, or BLAKE2X.
using c_blake2_state =
    std::variant<b2::hasher, b2::xof_state<b2::family::b>, b2::xof_state<b2::family::s>>;
static_assert(sizeof(c_blake2_state) <= sizeof(fastblake_blake2_state));
static_assert(alignof(c_blake2_state) <= alignof(fastblake_blake2_state));
static_assert(std::is_trivially_copyable_v<c_blake2_state>,
              "C callers copy states with memcpy and never destroy them");

c_blake2_state& state_of(fastblake_blake2_state* self) {
  return *std::launder(reinterpret_cast<c_blake2_state*>(self->opaque));
}
const c_blake2_state& state_of(const fastblake_blake2_state* self) {
  return *std::launder(reinterpret_cast<const c_blake2_state*>(self->opaque));
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

}  // namespace

extern "C" {

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
