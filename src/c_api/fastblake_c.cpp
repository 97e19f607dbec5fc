// The C interface (include/fastblake/fastblake.h) over the C++ library: what belongs to
// neither family (the version, the backend, thread pools, statuses). blake3_c.cpp and
// blake2_c.cpp hold the families'. Every function catches what the C++ side may throw and turns
// it into a status: nothing crosses into C.
#include <fastblake/fastblake.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/config.hpp>
#include <fastblake/thread_pool.hpp>

namespace {

// Writes up to capacity of list()'s names (string literals: NUL-terminated); returns how many
// there are.
size_t copy_names(std::vector<std::string_view> (*list)(), const char** names, size_t capacity) {
  std::vector<std::string_view> available;
  try {
    available = list();
  } catch (...) {
    return 0;
  }
  for (std::size_t i = 0; i < available.size() && i < capacity; ++i) names[i] = available[i].data();
  return available.size();
}

}  // namespace

extern "C" {

const char* fastblake_version(void) { return FASTBLAKE_VERSION_STRING; }

const char* fastblake_active_backend(void) {
  // Backend names are string literals: NUL-terminated.
  return fastblake::active_backend().data();
}

size_t fastblake_available_backends(const char** names, size_t capacity) {
  return copy_names(fastblake::available_backends, names, capacity);
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

const char* fastblake_active_variant(void) {
  // Variant names are string literals, and the empty view is of one.
  const std::string_view name = fastblake::active_variant();
  return name.empty() ? "" : name.data();
}

size_t fastblake_available_variants(const char** names, size_t capacity) {
  return copy_names(fastblake::available_variants, names, capacity);
}

int fastblake_use_variant(const char* name) {
  return name != nullptr && fastblake::use_variant(name) ? 0 : EINVAL;
}

size_t fastblake_variant_choice(char* text, size_t capacity) {
  std::string line;
  try {
    line = fastblake::variant_choice();
    const std::string error = fastblake::variant_override_error();
    if (!error.empty()) line += (line.empty() ? "" : "; ") + error;
  } catch (...) {
    line.clear();
  }
  if (capacity > 0) {
    const std::size_t n = std::min(line.size(), capacity - 1);
    std::memcpy(text, line.data(), n);
    text[n] = '\0';
  }
  return line.size();
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
    case FASTBLAKE_EBAO_MISMATCH:
      return "a node of the Bao encoding does not match the hash";
    case FASTBLAKE_EBAO_TRUNCATED:
      return "the Bao encoding ends before a node it needs";
    default:
      return status > 0 ? std::strerror(status) : "unknown fastblake status";
  }
}

}  // extern "C"
