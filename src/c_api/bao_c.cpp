// The C interface to Bao (fastblake.h, "Bao"): the in-memory encoder, slicer and decoders.
#include <algorithm>
#include <cstring>
#include <vector>

#include <fastblake/bao.hpp>

#include "c_api/c_api.hpp"

namespace {

namespace bao = fastblake::bao;
using fastblake::c_api::bytes;

bool known_format(int format) {
  return format == FASTBLAKE_BAO_COMBINED || format == FASTBLAKE_BAO_OUTBOARD;
}

// f's output into out (out_capacity bytes): 0, or ERANGE with its length in *out_len; a
// bao::error as its status, with its offset in *error_offset.
template <class F>
int into(F&& f, std::uint8_t* out, std::size_t out_capacity, std::size_t* out_len,
         std::uint64_t* error_offset) noexcept {
  return fastblake::c_api::guarded([&] {
    try {
      const std::vector<std::byte> result = f();
      *out_len = result.size();
      if (result.size() > out_capacity) return ERANGE;
      if (!result.empty()) std::memcpy(out, result.data(), result.size());
      return 0;
    } catch (const bao::error& e) {
      if (error_offset != nullptr) *error_offset = e.offset();
      switch (static_cast<bao::errc>(e.code().value())) {
        case bao::errc::hash_mismatch:
          return static_cast<int>(FASTBLAKE_EBAO_MISMATCH);
        case bao::errc::truncated:
          return static_cast<int>(FASTBLAKE_EBAO_TRUNCATED);
        case bao::errc::invalid_group:
          break;
      }
      return EINVAL;
    }
  });
}

fastblake::blake3::digest digest_of(const std::uint8_t hash[32]) {
  fastblake::blake3::digest::bytes_type b;
  std::copy_n(hash, b.size(), b.begin());
  return fastblake::blake3::digest(b);
}

}  // namespace

extern "C" {

uint64_t fastblake_bao_encoded_size(uint64_t content_len, int format, unsigned group_log) {
  if (!known_format(format) || group_log > bao::max_group_log) return 0;
  return format == FASTBLAKE_BAO_OUTBOARD ? bao::outboard_size(content_len, group_log)
                                          : bao::encoded_size(content_len, group_log);
}

int fastblake_bao_encode(const void* input, size_t input_len, int format, unsigned group_log,
                         uint8_t* out, size_t out_capacity, uint8_t hash[32]) {
  if (!known_format(format) || group_log > bao::max_group_log) return EINVAL;
  if (fastblake_bao_encoded_size(input_len, format, group_log) > out_capacity) return ERANGE;
  return fastblake::c_api::guarded([&] {
    const auto in = bytes(input, input_len);
    const auto to = std::as_writable_bytes(std::span(out, out_capacity));
    const fastblake::blake3::digest d = format == FASTBLAKE_BAO_OUTBOARD
                                            ? bao::encode_outboard(in, to, group_log)
                                            : bao::encode(in, to, group_log);
    std::memcpy(hash, d.data(), d.size());
    return 0;
  });
}

int fastblake_bao_decode(const uint8_t hash[32], const void* encoded, size_t encoded_len,
                         const void* data, size_t data_len, unsigned group_log, uint8_t* out,
                         size_t out_capacity, size_t* out_len, uint64_t* error_offset) {
  return into(
      [&] {
        return data == nullptr
                   ? bao::decode(digest_of(hash), bytes(encoded, encoded_len), group_log)
                   : bao::decode_outboard(digest_of(hash), bytes(encoded, encoded_len),
                                          bytes(data, data_len), group_log);
      },
      out, out_capacity, out_len, error_offset);
}

int fastblake_bao_extract_slice(const void* encoded, size_t encoded_len, const void* data,
                                size_t data_len, uint64_t start, uint64_t count, unsigned group_log,
                                uint8_t* out, size_t out_capacity, size_t* out_len,
                                uint64_t* error_offset) {
  return into(
      [&] {
        return data == nullptr
                   ? bao::extract_slice(bytes(encoded, encoded_len), start, count, group_log)
                   : bao::extract_slice_outboard(bytes(encoded, encoded_len), bytes(data, data_len),
                                                 start, count, group_log);
      },
      out, out_capacity, out_len, error_offset);
}

int fastblake_bao_decode_slice(const uint8_t hash[32], const void* slice, size_t slice_len,
                               uint64_t start, uint64_t count, unsigned group_log, uint8_t* out,
                               size_t out_capacity, size_t* out_len, uint64_t* error_offset) {
  return into(
      [&] {
        return bao::decode_slice(digest_of(hash), bytes(slice, slice_len), start, count, group_log);
      },
      out, out_capacity, out_len, error_offset);
}

}  // extern "C"
