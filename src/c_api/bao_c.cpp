// The C interface to Bao (fastblake.h, "Bao"): the in-memory encoder, slicer and decoders.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fastblake/bao.hpp>

#include "c_api/c_api.hpp"
#include "os/file.hpp"

namespace {

namespace bao = fastblake::bao;
using fastblake::c_api::bytes;

// Bao's own formats, in pre-order; and with bao-tree's post-order outboard.
bool pre_order_format(int format) {
  return format == FASTBLAKE_BAO_COMBINED || format == FASTBLAKE_BAO_OUTBOARD;
}
bool known_format(int format) {
  return pre_order_format(format) || format == FASTBLAKE_BAO_POST_ORDER_OUTBOARD;
}

// f()'s status, a bao::error as its status, with its offset in *error_offset.
template <class F>
int checked(F&& f, std::uint64_t* error_offset) noexcept {
  return fastblake::c_api::guarded([&] {
    try {
      return f();
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
    } catch (const std::out_of_range&) {
      // A slice reader's position before the slice, or its length beyond it.
      return ERANGE;
    }
  });
}

// f's output into out (out_capacity bytes): 0, or ERANGE with its length in *out_len; a
// bao::error as its status, with its offset in *error_offset.
template <class F>
int into(F&& f, std::uint8_t* out, std::size_t out_capacity, std::size_t* out_len,
         std::uint64_t* error_offset) noexcept {
  return checked(
      [&] {
        const std::vector<std::byte> result = f();
        *out_len = result.size();
        if (result.size() > out_capacity) return ERANGE;
        if (!result.empty()) std::memcpy(out, result.data(), result.size());
        return 0;
      },
      error_offset);
}

// A C read function as the C++ side's.
bao::read_at_function read_function(fastblake_bao_read_fn read, void* context) {
  return [read, context](std::uint64_t offset, std::span<std::byte> out) -> std::size_t {
    errno = 0;
    const long long n = read(context, offset, out.data(), out.size());
    if (n < 0) throw std::system_error(errno != 0 ? errno : EIO, std::generic_category());
    return static_cast<std::size_t>(
        std::min<unsigned long long>(static_cast<unsigned long long>(n), out.size()));
  };
}

// A C write function as the C++ side's.
bao::write_at_function write_function(fastblake_bao_write_fn write, void* context) {
  return [write, context](std::uint64_t offset, std::span<const std::byte> b) {
    errno = 0;
    if (write(context, offset, b.data(), b.size()) != 0) {
      throw std::system_error(errno != 0 ? errno : EIO, std::generic_category());
    }
  };
}

fastblake::blake3::digest digest_of(const std::uint8_t hash[32]) {
  fastblake::blake3::digest::bytes_type b;
  std::copy_n(hash, b.size(), b.begin());
  return fastblake::blake3::digest(b);
}

}  // namespace

struct fastblake_bao_reader {
  bao::reader reader;
};

struct fastblake_bao_encoder {
  bao::encoder encoder;
};

namespace {

bao::format format_of(int format) {
  return format == FASTBLAKE_BAO_COMBINED   ? bao::format::combined
         : format == FASTBLAKE_BAO_OUTBOARD ? bao::format::outboard
                                            : bao::format::post_order_outboard;
}

// An encoder's status: a std::logic_error (used after finalize or a failure) is EINVAL.
template <class F>
int encoder_status(F&& f) noexcept {
  return fastblake::c_api::guarded([&] {
    try {
      return f();
    } catch (const std::logic_error&) {
      return EINVAL;
    }
  });
}

}  // namespace

extern "C" {

uint64_t fastblake_bao_encoded_size(uint64_t content_len, int format, unsigned group_log) {
  if (!known_format(format) || group_log > bao::max_group_log) return 0;
  try {
    return format == FASTBLAKE_BAO_COMBINED ? bao::encoded_size(content_len, group_log)
                                            : bao::outboard_size(content_len, group_log);
  } catch (const std::overflow_error&) {
    return 0;
  }
}

int fastblake_bao_encode(const void* input, size_t input_len, int format, unsigned group_log,
                         uint8_t* out, size_t out_capacity, uint8_t hash[32]) {
  if (!known_format(format) || group_log > bao::max_group_log) return EINVAL;
  const uint64_t size = fastblake_bao_encoded_size(input_len, format, group_log);
  if (size == 0 || size > out_capacity) return ERANGE;
  return fastblake::c_api::guarded([&] {
    const auto in = bytes(input, input_len);
    const auto to = std::as_writable_bytes(std::span(out, out_capacity));
    const fastblake::blake3::digest d =
        format == FASTBLAKE_BAO_COMBINED   ? bao::encode(in, to, group_log)
        : format == FASTBLAKE_BAO_OUTBOARD ? bao::encode_outboard(in, to, group_log)
                                           : bao::encode_post_order_outboard(in, to, group_log);
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

int fastblake_bao_reader_new(const uint8_t hash[32], fastblake_bao_read_fn tree, void* tree_context,
                             fastblake_bao_read_fn data, void* data_context, unsigned group_log,
                             fastblake_bao_reader** reader) {
  if (tree == nullptr || group_log > bao::max_group_log) return EINVAL;
  return fastblake::c_api::guarded([&] {
    *reader = new fastblake_bao_reader{
        data == nullptr ? bao::reader(digest_of(hash), read_function(tree, tree_context), group_log)
                        : bao::reader(digest_of(hash), read_function(tree, tree_context),
                                      read_function(data, data_context), group_log)};
    return 0;
  });
}

int fastblake_bao_reader_new_post_order(const uint8_t hash[32], fastblake_bao_read_fn outboard,
                                        void* outboard_context, uint64_t outboard_size,
                                        fastblake_bao_read_fn data, void* data_context,
                                        unsigned group_log, fastblake_bao_reader** reader) {
  if (outboard == nullptr || data == nullptr || group_log > bao::max_group_log) return EINVAL;
  return fastblake::c_api::guarded([&] {
    *reader = new fastblake_bao_reader{bao::reader(
        digest_of(hash),
        bao::pre_order_view(read_function(outboard, outboard_context), outboard_size, group_log),
        read_function(data, data_context), group_log)};
    return 0;
  });
}

int fastblake_bao_reader_new_slice(const uint8_t hash[32], fastblake_bao_read_fn slice,
                                   void* slice_context, uint64_t start, uint64_t count,
                                   unsigned group_log, fastblake_bao_reader** reader) {
  if (slice == nullptr || group_log > bao::max_group_log) return EINVAL;
  return fastblake::c_api::guarded([&] {
    *reader = new fastblake_bao_reader{bao::reader::over_slice(
        digest_of(hash), read_function(slice, slice_context), start, count, group_log)};
    return 0;
  });
}

int fastblake_bao_extract_slice_to(fastblake_bao_read_fn tree, void* tree_context,
                                   fastblake_bao_read_fn data, void* data_context, uint64_t start,
                                   uint64_t count, unsigned group_log, fastblake_bao_write_fn out,
                                   void* out_context, uint64_t* slice_len, uint64_t* error_offset) {
  if (tree == nullptr || out == nullptr || group_log > bao::max_group_log) return EINVAL;
  return checked(
      [&] {
        const bao::write_at_function to = write_function(out, out_context);
        const std::uint64_t n =
            data == nullptr
                ? bao::extract_slice(read_function(tree, tree_context), start, count, to, group_log)
                : bao::extract_slice_outboard(read_function(tree, tree_context),
                                              read_function(data, data_context), start, count, to,
                                              group_log);
        if (slice_len != nullptr) *slice_len = n;
        return 0;
      },
      error_offset);
}

#if FASTBLAKE_C_FILES
int fastblake_bao_reader_open(const uint8_t hash[32], int tree_fd, int data_fd, unsigned group_log,
                              fastblake_bao_reader** reader) {
  if (group_log > bao::max_group_log) return EINVAL;
  return fastblake::c_api::guarded([&] {
    *reader = new fastblake_bao_reader{
        data_fd < 0 ? bao::reader(digest_of(hash), bao::read_from_fd(tree_fd), group_log)
                    : bao::reader(digest_of(hash), bao::read_from_fd(tree_fd),
                                  bao::read_from_fd(data_fd), group_log)};
    return 0;
  });
}

int fastblake_bao_encode_fd(int input_fd, uint64_t content_len, int format, unsigned group_log,
                            int out_fd, uint8_t hash[32], uint64_t* error_offset) {
  if (!pre_order_format(format) || group_log > bao::max_group_log) return EINVAL;
  return checked(
      [&] {
        fastblake::thread_pool& pool = fastblake::thread_pool::default_pool();
        const auto in = bao::read_from_fd(input_fd);
        const auto out = bao::write_to_fd(out_fd);
        const fastblake::blake3::digest d =
            format == FASTBLAKE_BAO_OUTBOARD
                ? bao::encode_outboard(content_len, in, out, pool, group_log)
                : bao::encode(content_len, in, out, pool, group_log);
        std::memcpy(hash, d.data(), d.size());
        return 0;
      },
      error_offset);
}
#endif

#if FASTBLAKE_FILES
int fastblake_bao_encode_file(const char* path, int format, unsigned group_log, int strategy,
                              int out_fd, uint8_t hash[32]) {
  if (!pre_order_format(format) || group_log > bao::max_group_log) return EINVAL;
  // An output that is the input would destroy it as it is read.
  namespace os = fastblake::internal::os;
  os::file_status input_info, output_info;
  if (os::status(os::path_from_utf8(path), input_info) == 0 &&
      os::status(out_fd, output_info, true) == 0 && output_info.regular &&
      input_info.identity != 0 && input_info.device == output_info.device &&
      input_info.identity == output_info.identity) {
    return EINVAL;
  }
  return checked(
      [&] {
        fastblake::file_options options;
        options.strategy = static_cast<fastblake::file_strategy>(strategy);
        const auto out = bao::write_to_fd(out_fd);
        const fastblake::blake3::digest d =
            format == FASTBLAKE_BAO_OUTBOARD
                ? bao::encode_outboard_file(os::path_from_utf8(path), out, options, group_log)
                : bao::encode_file(os::path_from_utf8(path), out, options, group_log);
        std::memcpy(hash, d.data(), d.size());
        return 0;
      },
      nullptr);
}
#endif

int fastblake_bao_convert_outboard(const void* outboard, size_t outboard_len, int to_format,
                                   unsigned group_log, uint8_t* out, size_t out_capacity,
                                   size_t* out_len, uint64_t* error_offset) {
  if (to_format == FASTBLAKE_BAO_COMBINED || !known_format(to_format) ||
      group_log > bao::max_group_log) {
    return EINVAL;
  }
  return into(
      [&] {
        const auto in = bytes(outboard, outboard_len);
        return to_format == FASTBLAKE_BAO_OUTBOARD ? bao::pre_order_outboard(in, group_log)
                                                   : bao::post_order_outboard(in, group_log);
      },
      out, out_capacity, out_len, error_offset);
}

int fastblake_bao_encoder_new(fastblake_bao_read_fn read, fastblake_bao_write_fn write,
                              void* context, int format, unsigned group_log,
                              fastblake_bao_encoder** encoder) {
  if (read == nullptr || write == nullptr || !known_format(format) ||
      group_log > bao::max_group_log) {
    return EINVAL;
  }
  return fastblake::c_api::guarded([&] {
    *encoder = new fastblake_bao_encoder{bao::encoder(read_function(read, context),
                                                      write_function(write, context),
                                                      format_of(format), group_log)};
    return 0;
  });
}

int fastblake_bao_encoder_resume(fastblake_bao_read_fn read, fastblake_bao_write_fn write,
                                 void* context, uint64_t content_len, fastblake_bao_read_fn input,
                                 void* input_context, const uint8_t hash[32], unsigned group_log,
                                 fastblake_bao_encoder** encoder, uint64_t* error_offset) {
  if (read == nullptr || write == nullptr || input == nullptr || group_log > bao::max_group_log) {
    return EINVAL;
  }
  return checked(
      [&] {
        *encoder = new fastblake_bao_encoder{bao::encoder::resume(
            read_function(read, context), write_function(write, context), content_len,
            read_function(input, input_context), digest_of(hash), group_log)};
        return 0;
      },
      error_offset);
}

#if FASTBLAKE_C_FILES
int fastblake_bao_encoder_resume_fd(int outboard_fd, int input_fd, uint64_t content_len,
                                    const uint8_t hash[32], unsigned group_log,
                                    fastblake_bao_encoder** encoder, uint64_t* error_offset) {
  if (group_log > bao::max_group_log) return EINVAL;
  return checked(
      [&] {
        *encoder = new fastblake_bao_encoder{bao::encoder::resume(
            bao::read_from_fd(outboard_fd), bao::write_to_fd(outboard_fd), content_len,
            bao::read_from_fd(input_fd), digest_of(hash), group_log)};
        return 0;
      },
      error_offset);
}

int fastblake_bao_encoder_open(int fd, int format, unsigned group_log,
                               fastblake_bao_encoder** encoder) {
  if (!known_format(format) || group_log > bao::max_group_log) return EINVAL;
  return fastblake::c_api::guarded([&] {
    *encoder = new fastblake_bao_encoder{
        bao::encoder(bao::read_from_fd(fd), bao::write_to_fd(fd), format_of(format), group_log)};
    return 0;
  });
}
#endif

int fastblake_bao_encoder_update(fastblake_bao_encoder* encoder, const void* input, size_t len) {
  return encoder_status([&] {
    encoder->encoder.update(bytes(input, len));
    return 0;
  });
}

int fastblake_bao_encoder_finalize(fastblake_bao_encoder* encoder, uint8_t hash[32]) {
  return encoder_status([&] {
    const fastblake::blake3::digest d = encoder->encoder.finalize();
    std::memcpy(hash, d.data(), d.size());
    return 0;
  });
}

void fastblake_bao_encoder_free(fastblake_bao_encoder* encoder) { delete encoder; }

void fastblake_bao_reader_free(fastblake_bao_reader* reader) { delete reader; }

void fastblake_bao_reader_use_pool(fastblake_bao_reader* reader) {
  // A pool that cannot start leaves the reader on the calling thread.
  try {
    reader->reader.use_pool(fastblake::thread_pool::default_pool());
  } catch (...) {
  }
}

int fastblake_bao_reader_read(fastblake_bao_reader* reader, void* out, size_t capacity,
                              size_t* out_len, uint64_t* error_offset) {
  *out_len = 0;
  return checked(
      [&] {
        *out_len = reader->reader.read(std::span(static_cast<std::byte*>(out), capacity));
        return 0;
      },
      error_offset);
}

void fastblake_bao_reader_seek(fastblake_bao_reader* reader, uint64_t position) {
  reader->reader.seek(position);
}

uint64_t fastblake_bao_reader_position(const fastblake_bao_reader* reader) {
  return reader->reader.position();
}

int fastblake_bao_reader_length(fastblake_bao_reader* reader, uint64_t* length,
                                uint64_t* error_offset) {
  return checked(
      [&] {
        *length = reader->reader.length();
        return 0;
      },
      error_offset);
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
