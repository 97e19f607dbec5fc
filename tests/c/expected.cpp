// The C++ API's answers for the C interface's test (c_api_test.c), computed without the C
// interface: the test compares the two.
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

// A hasher in mode 0 (hash), 1 (keyed with key) or 2 (derive_key with context).
b3::hasher hasher_in(int mode, const uint8_t* key, std::string_view context) {
  if (mode == 1) {
    b3::key_type k;
    std::memcpy(k.data(), key, k.size());
    return b3::hasher::keyed(k);
  }
  return mode == 2 ? b3::hasher::derive_key(context) : b3::hasher();
}

}  // namespace

extern "C" {

const char* expected_version(void) { return FASTBLAKE_VERSION_STRING; }
const char* expected_backend(void) { return fastblake::active_backend().data(); }

void expected_blake3(int mode, const uint8_t* key, const void* context, size_t context_len,
                     const void* input, size_t input_len, uint64_t seek, uint8_t* out,
                     size_t out_len) {
  b3::hasher h = hasher_in(
      mode, key,
      std::string_view(context_len == 0 ? "" : static_cast<const char*>(context), context_len));
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

void expected_subtree(int mode, const uint8_t* key, const char* context, const void* input,
                      size_t input_len, uint64_t offset, uint8_t out[32]) {
  b3::hasher h = hasher_in(mode, key, context);
  b3::hazmat::set_input_offset(h, offset);
  h.update(bytes(input, input_len));
  const b3::hazmat::chaining_value cv = b3::hazmat::finalize_non_root(h);
  std::memcpy(out, cv.data(), cv.size());
}

void expected_blake2x(int b, const fastblake_blake2_params* params, const void* input,
                      size_t input_len, uint64_t length, uint8_t* out) {
  const auto fill = [&](auto p) {
    p.hash_length(length)
        .key(bytes(params->key, params->key_length))
        .salt(bytes(params->salt, params->salt_length))
        .personal(bytes(params->personal, params->personal_length));
    const std::vector<std::uint8_t> h = p.hash(bytes(input, input_len));
    std::memcpy(out, h.data(), h.size());
  };
  if (b) {
    fill(b2::xof_params<b2::family::b>());
  } else {
    fill(b2::xof_params<b2::family::s>());
  }
}

const char* expected_backends(void) {
  static const std::string names = [] {
    std::string joined;
    for (std::string_view name : fastblake::available_backends()) {
      if (!joined.empty()) joined += ",";
      joined += name;
    }
    return joined;
  }();
  return names.c_str();
}

}  // extern "C"
