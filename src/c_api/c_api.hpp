// What the C interface's files share: the C++ side's exceptions and error codes as the C
// statuses of fastblake.h, and C's (pointer, length) pairs as spans.
#pragma once

#include <fastblake/fastblake.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <system_error>

#if FASTBLAKE_FILES
#include <fastblake/file.hpp>
#define FASTBLAKE_C_FILES 1
#endif

namespace fastblake::c_api {

inline std::span<const std::byte> bytes(const void* data, std::size_t size) {
  // A null pointer is allowed for an empty input, as memcpy's callers expect.
  return size == 0 ? std::span<const std::byte>()
                   : std::span(static_cast<const std::byte*>(data), size);
}
inline std::span<std::byte> out_bytes(std::uint8_t* out, std::size_t size) {
  return size == 0 ? std::span<std::byte>() : std::as_writable_bytes(std::span(out, size));
}

// What a status code says, for errors the C++ side reports.
inline int status_of(const std::error_code& ec) {
  if (!ec) return 0;
#if FASTBLAKE_C_FILES
  if (ec == fastblake::blake3::file_errc::truncated) return FASTBLAKE_ETRUNCATED;
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

}  // namespace fastblake::c_api
