// The BLAKE3 file API over the family-independent file code (engine.hpp).
#include <fastblake/file.hpp>

#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "blake3/hasher_access.hpp"
#include "blake3/offload.hpp"
#include "file/engine.hpp"

namespace fastblake::blake3 {
namespace {

constexpr std::string_view family_prefix = "fastblake::blake3";

// The parts of one subtree, each hashed by a hasher that starts where its part does.
class hasher_subtree final : public internal::subtree_parts {
 public:
  hasher_subtree(hasher& h, detail::internal_access::subtree_place place, std::size_t parts)
      : h_(h), size_(place.size), mode_(hazmat::mode::of(h)) {
    parts_.reserve(parts);
    for (std::size_t i = 0; i < parts; ++i) {
      hazmat::set_input_offset(parts_.emplace_back(mode_), place.start + i * (size_ / parts));
    }
  }
  std::uint64_t size() const noexcept override { return size_; }
  std::size_t parts() const noexcept override { return parts_.size(); }
  void update(std::size_t part, std::span<const std::byte> bytes) override {
    parts_[part].update(bytes);
  }
  void finish() override {
    std::vector<hazmat::chaining_value> row;
    row.reserve(parts_.size());
    for (const hasher& part : parts_) row.push_back(hazmat::finalize_non_root(part));
    while (row.size() > 2) {
      for (std::size_t i = 0; i < row.size() / 2; ++i) {
        row[i] = hazmat::merge_subtrees_non_root(row[2 * i], row[2 * i + 1], mode_);
      }
      row.resize(row.size() / 2);
    }
    detail::internal_access::push_subtree(h_, row[0], row[1], size_);
  }

 private:
  hasher& h_;
  std::uint64_t size_;
  hazmat::mode mode_;
  std::vector<hasher> parts_;
};

class hasher_sink final : public internal::file_sink {
 public:
  explicit hasher_sink(hasher& h) noexcept : h_(h) {}
  void update(std::span<const std::byte> bytes) override { h_.update(bytes); }
  void update_parallel(std::span<const std::byte> bytes, thread_pool* pool,
                       bool may_offload) override {
    if (may_offload) {
      detail::internal_access::update_automatic(h_, bytes, pool);
    } else {
      h_.update_parallel(bytes, *pool);
    }
  }
  std::unique_ptr<internal::subtree_parts> split_next(std::uint64_t most, std::size_t parts,
                                                      bool may_offload) override {
    const auto place = detail::internal_access::next_subtree(h_, most);
    if (place.size == 0 || (may_offload && internal::blake3::may_take(place.size))) return nullptr;
    // Two parts at least (the subtree's children), and none under a chunk.
    parts = std::clamp<std::size_t>(std::bit_floor(parts), 2,
                                    static_cast<std::size_t>(place.size / chunk_size));
    return std::make_unique<hasher_subtree>(h_, place, parts);
  }

 private:
  hasher& h_;
};

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
                       [&](std::size_t i, int fd, const struct stat& info,
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
