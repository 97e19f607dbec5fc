// BLAKE3's sink for the file code (blake3_sink.hpp): a hasher, and the subtrees it hands out to
// be read in parts.
#include "file/blake3_sink.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <vector>

#include "blake3/hasher_access.hpp"
#include "blake3/offload.hpp"

namespace fastblake::internal::blake3 {
namespace {

using fastblake::blake3::chunk_size;
using fastblake::blake3::hasher;
namespace detail = fastblake::blake3::detail;
namespace hazmat = fastblake::blake3::hazmat;

// The parts of one subtree, each hashed by a hasher that starts where its part does.
class hasher_subtree final : public subtree_parts {
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

}  // namespace

void hasher_sink::update_parallel(std::span<const std::byte> bytes, thread_pool* pool,
                                  bool may_offload) {
  if (may_offload) {
    detail::internal_access::update_automatic(h_, bytes, pool);
  } else {
    h_.update_parallel(bytes, *pool);
  }
}

std::unique_ptr<subtree_parts> hasher_sink::split_next(std::uint64_t most, std::size_t parts,
                                                       bool may_offload) {
  const auto place = detail::internal_access::next_subtree(h_, most);
  if (place.size == 0 || (may_offload && may_take(place.size))) return nullptr;
  // Two parts at least (the subtree's children), and none under a chunk.
  parts = std::clamp<std::size_t>(std::bit_floor(parts), 2,
                                  static_cast<std::size_t>(place.size / chunk_size));
  return std::make_unique<hasher_subtree>(h_, place, parts);
}

}  // namespace fastblake::internal::blake3
