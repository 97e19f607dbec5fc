// The C++ API's answers for the C interface's test (c_api_test.c), computed without the C
// interface: the test compares the two.
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>

#include "expected.h"

namespace {

namespace b2 = fastblake::blake2;
namespace b3 = fastblake::blake3;

std::span<const std::byte> bytes(const void* data, std::size_t size) {
  return size == 0 ? std::span<const std::byte>()
                   : std::span(static_cast<const std::byte*>(data), size);
}

template <class Params>
void set_tree(Params& p, const fastblake_blake2_params& c) {
  if (c.hash_length != 0) p.hash_length(c.hash_length);
  p.key(bytes(c.key, c.key_length))
      .salt(bytes(c.salt, c.salt_length))
      .personal(bytes(c.personal, c.personal_length))
      .fanout(c.fanout)
      .max_depth(c.max_depth)
      .max_leaf_length(c.max_leaf_length)
      .node_offset(c.node_offset)
      .node_depth(c.node_depth)
      .inner_hash_length(c.inner_hash_length)
      .last_node(c.last_node != 0);
}

template <class Digest>
size_t copy_out(const Digest& d, uint8_t* out) {
  std::memcpy(out, d.data(), d.size());
  return d.size();
}

}  // namespace

extern "C" {

const char* expected_version(void) { return FASTBLAKE_VERSION_STRING; }
const char* expected_backend(void) { return fastblake::active_backend().data(); }

void expected_blake3(int mode, const uint8_t* key, const void* context, size_t context_len,
                     const void* input, size_t input_len, uint64_t seek, uint8_t* out,
                     size_t out_len) {
  b3::hasher h;
  if (mode == 1) {
    b3::key_type k;
    std::memcpy(k.data(), key, k.size());
    h = b3::hasher::keyed(k);
  } else if (mode == 2) {
    h = b3::hasher::derive_key(
        std::string_view(context_len == 0 ? "" : static_cast<const char*>(context), context_len));
  }
  h.update(bytes(input, input_len));
  b3::output_reader r = h.finalize_xof();
  r.seek(seek);
  r.fill(std::span(out, out_len));
}

size_t expected_blake2(int algorithm, const fastblake_blake2_params* params, const void* input,
                       size_t input_len, uint8_t* out) {
  const auto in = bytes(input, input_len);
  switch (algorithm) {
    case 0: {
      b2::params<b2::family::b> p;
      set_tree(p, *params);
      return copy_out(p.hash(in), out);
    }
    case 1: {
      b2::params<b2::family::s> p;
      set_tree(p, *params);
      return copy_out(p.hash(in), out);
    }
    case 2: {
      b2::parallel_params<b2::family::b> p;
      if (params->hash_length != 0) p.hash_length(params->hash_length);
      return copy_out(p.key(bytes(params->key, params->key_length)).hash(in), out);
    }
    default: {
      b2::parallel_params<b2::family::s> p;
      if (params->hash_length != 0) p.hash_length(params->hash_length);
      return copy_out(p.key(bytes(params->key, params->key_length)).hash(in), out);
    }
  }
}

}  // extern "C"
