// The BLAKE3 file API over the family-independent file code (engine.hpp), which hashes into a
// hasher through blake3_sink.hpp.
#include <fastblake/file.hpp>

#include <string>
#include <vector>

#include "file/blake3_sink.hpp"
#include "file/engine.hpp"

namespace fastblake::blake3 {
namespace {

using internal::blake3::hasher_sink;

constexpr std::string_view family_prefix = "fastblake::blake3";

std::error_code from_path(hasher& h, const std::filesystem::path& path,
                          const file_options& options) {
  return internal::hash_into_copy<hasher_sink>(
      h, [&](internal::file_sink& sink) { return internal::hash_path(sink, path, options); });
}

std::error_code from_fd(hasher& h, int fd, const file_options& options) {
  return internal::hash_into_copy<hasher_sink>(h, [&](internal::file_sink& sink) {
    return internal::hash_fd(sink, fd, options, true, false);
  });
}

}  // namespace

void update_from_file(hasher& h, const std::filesystem::path& path, const file_options& options,
                      std::error_code& ec) noexcept {
  ec = from_path(h, path, options);
}

void update_from_file(hasher& h, const std::filesystem::path& path, const file_options& options) {
  if (const std::error_code ec = from_path(h, path, options)) {
    internal::throw_file_error(ec, family_prefix, internal::quoted(path));
  }
}

void update_from_fd(hasher& h, int fd, const file_options& options, std::error_code& ec) noexcept {
  ec = from_fd(h, fd, options);
}

void update_from_fd(hasher& h, int fd, const file_options& options) {
  if (const std::error_code ec = from_fd(h, fd, options)) {
    internal::throw_file_error(ec, family_prefix, internal::descriptor_name(fd));
  }
}

// A fresh hasher of its own: nothing to keep on failure, so no copy to hash into.
digest hash_file(const std::filesystem::path& path, const file_options& options,
                 std::error_code& ec) noexcept {
  hasher h;
  hasher_sink sink(h);
  ec = internal::hash_path(sink, path, options);
  return ec ? digest() : h.finalize();
}

digest hash_file(const std::filesystem::path& path, const file_options& options) {
  std::error_code ec;
  const digest d = hash_file(path, options, ec);
  if (ec) internal::throw_file_error(ec, family_prefix, internal::quoted(path));
  return d;
}

digest file_result::hash() const {
  output_reader r = output;
  r.seek(0);
  digest::bytes_type bytes;
  r.fill(std::span<std::uint8_t>(bytes));
  return digest(bytes);
}

std::vector<file_result> hash_files(std::span<const std::filesystem::path> paths,
                                    const hasher& mode_hasher, const file_options& options) {
  std::vector<file_result> results(paths.size(), file_result{mode_hasher.finalize_xof(), {}});
  std::vector<std::error_code> errors(paths.size());
  internal::hash_files(paths, options, errors,
                       [&](std::size_t i, int fd, const internal::os::file_status& info,
                           const file_options& per_file, bool threads) {
                         hasher h = mode_hasher;
                         hasher_sink sink(h);
                         const std::error_code ec =
                             internal::hash_fd(sink, fd, per_file, threads, true, &info);
                         if (!ec) results[i].output = h.finalize_xof();
                         return ec;
                       });
  for (std::size_t i = 0; i < paths.size(); ++i) results[i].error = errors[i];
  return results;
}

}  // namespace fastblake::blake3
