// Bao encodings of regular files on the file code's ways (file/engine.hpp): mapped windows on
// the pool, or reads. The encoder is a file_sink that encodes each whole aligned subtree as its
// bytes arrive (from the mapping itself, never copied, where a window holds it whole), keeps
// the chaining values of those done as a stack with at most one per size, and writes what
// remains (the last subtrees and the parents above the rest) when the last bytes arrive.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <exception>
#include <vector>

#include <fastblake/bao.hpp>

#include "bao/encoder.hpp"
#include "file/engine.hpp"
#include "file/ways.hpp"

namespace fastblake::internal::bao {
namespace {

class file_encoder final : public file_sink {
 public:
  file_encoder(const geometry& g, bool outboard, const fastblake::bao::write_at_function& out)
      : g_(g),
        outboard_(outboard),
        out_(out),
        unit_(std::max<std::uint64_t>(unit_len, g.group_len)) {}

  void update(std::span<const std::byte> bytes) override { guarded(bytes, nullptr); }
  void update_parallel(std::span<const std::byte> bytes, thread_pool* pool, bool) override {
    guarded(bytes, pool != nullptr && pool->size() > 1 ? pool : nullptr);
  }

  /// The root hash once every byte has arrived (an empty input has none to wait for).
  bool done() const noexcept { return finished_; }
  std::uint64_t received() const noexcept { return received_; }
  const cv_bytes& root() const noexcept { return root_; }
  /// What the encoder or the output threw (the file code keeps only its error code).
  std::exception_ptr failure() const noexcept { return failure_; }

  void finish_empty() { finish(0, {}, nullptr); }

 private:
  // Whole subtrees smaller than this wait for the rest of their bytes (reads come in 1 MiB).
  static constexpr std::uint64_t unit_len = std::uint64_t{1} << 20;

  struct node {
    std::uint64_t offset, len;
    cv_bytes cv;
  };

  void guarded(std::span<const std::byte> bytes, thread_pool* pool) {
    try {
      take(bytes, pool);
    } catch (...) {
      failure_ = std::current_exception();
      throw;
    }
  }

  // Bytes from received_ on; a file that grew since its length was taken gives more, which
  // the encoding (its length already written) leaves out.
  void take(std::span<const std::byte> bytes, thread_pool* pool) {
    bytes = bytes.first(static_cast<std::size_t>(
        std::min<std::uint64_t>(bytes.size(), g_.content_len - received_)));
    if (bytes.empty() || finished_) return;
    if (!held_.empty()) {
      const auto n =
          static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), unit_ - held_.size()));
      held_.insert(held_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      bytes = bytes.subspan(n);
      received_ += n;
      const std::uint64_t held_at = received_ - held_.size();
      if (received_ == g_.content_len) return finish(held_at, held_, pool);
      if (held_.size() < unit_) return;
      whole(held_at, held_, pool);
      held_.clear();
    }
    // From here bytes start on a multiple of unit_.
    if (received_ + bytes.size() == g_.content_len) {
      const std::uint64_t at = received_;
      received_ = g_.content_len;
      return finish(at, bytes, pool);
    }
    const auto whole_len = static_cast<std::size_t>(bytes.size() / unit_ * unit_);
    if (whole_len != 0) {
      whole(received_, bytes.first(whole_len), pool);
      received_ += whole_len;
    }
    held_.assign(bytes.begin() + static_cast<std::ptrdiff_t>(whole_len), bytes.end());
    received_ += held_.size();
  }

  // [offset, offset + bytes.size()), multiples of unit_ that end before the input does, as the
  // largest aligned subtrees that fill it: each one a node of the tree, and not its root.
  void whole(std::uint64_t offset, std::span<const std::byte> bytes, thread_pool* pool) {
    while (!bytes.empty()) {
      std::uint64_t len = std::bit_floor(static_cast<std::uint64_t>(bytes.size()));
      if (offset != 0) len = std::min(len, offset & (~offset + 1));
      push({offset, len,
            encode_node(offset, len, position(offset, len), bytes, offset, pool, false)});
      offset += len;
      bytes = bytes.subspan(static_cast<std::size_t>(len));
    }
  }

  // Two done siblings make their parent: written at its place, and done in their stead.
  void push(const node& n) {
    subtrees_.push_back(n);
    while (subtrees_.size() >= 2) {
      const node& left = subtrees_[subtrees_.size() - 2];
      const node& right = subtrees_.back();
      if (left.len != right.len || left.offset % (2 * left.len) != 0) break;
      std::array<std::byte, parent_size> parent;
      std::memcpy(parent.data(), left.cv.data(), left.cv.size());
      std::memcpy(parent.data() + left.cv.size(), right.cv.data(), right.cv.size());
      out_(position(left.offset, 2 * left.len), parent);
      const node merged{left.offset, 2 * left.len, parent_cv(parent.data(), false)};
      subtrees_.resize(subtrees_.size() - 2);
      subtrees_.push_back(merged);
    }
  }

  // The last bytes, [from, content_len) in tail: the subtrees they hold, and every parent
  // above the done ones.
  void finish(std::uint64_t from, std::span<const std::byte> tail, thread_pool* pool) {
    root_ = subtree(0, g_.content_len, header_size, true, from, tail, pool);
    finished_ = true;
    held_ = {};
  }

  cv_bytes subtree(std::uint64_t offset, std::uint64_t len, std::uint64_t at, bool is_root,
                   std::uint64_t from, std::span<const std::byte> tail, thread_pool* pool) {
    if (offset >= from) return encode_node(offset, len, at, tail, from, pool, is_root);
    for (const node& n : subtrees_) {
      if (n.offset == offset && n.len == len) return n.cv;
    }
    // A parent over done subtrees, or over the last done ones and the tail.
    const std::uint64_t left = geometry::left_len(len);
    const std::uint64_t right_at = at + parent_size + g_.subtree_size(left, outboard_);
    const cv_bytes l = subtree(offset, left, at + parent_size, false, from, tail, pool);
    const cv_bytes r = subtree(offset + left, len - left, right_at, false, from, tail, pool);
    std::array<std::byte, parent_size> parent;
    std::memcpy(parent.data(), l.data(), l.size());
    std::memcpy(parent.data() + l.size(), r.data(), r.size());
    out_(at, parent);
    return parent_cv(parent.data(), is_root);
  }

  // The node [offset, offset + len), whose bytes `bytes` holds from input offset `base` on,
  // encoded and written at `at`: on the pool in pieces, each written by the thread that made it
  // while the others go on, or here into one buffer.
  cv_bytes encode_node(std::uint64_t offset, std::uint64_t len, std::uint64_t at,
                       std::span<const std::byte> bytes, std::uint64_t base, thread_pool* pool,
                       bool is_root) {
    if (pool != nullptr && len > subtree_levels::max_len) {
      return piece_encoder(bytes, base, out_, g_, outboard_, pool, piece_for(len, *pool))
          .subtree(offset, len, at, is_root);
    }
    buffer_.resize(static_cast<std::size_t>(g_.subtree_size(len, outboard_)));
    const cv_bytes cv =
        encoder(bytes, g_, outboard_, buffer_.data(), base, at).subtree(offset, len, at, is_root);
    if (!buffer_.empty()) out_(at, buffer_);
    return cv;
  }

  // Where the node [offset, offset + len) starts in the encoding: its path from the root.
  std::uint64_t position(std::uint64_t offset, std::uint64_t len) const noexcept {
    std::uint64_t at = header_size, node_offset = 0, node_len = g_.content_len;
    while (node_offset != offset || node_len != len) {
      const std::uint64_t left = geometry::left_len(node_len);
      at += parent_size;
      if (offset < node_offset + left) {
        node_len = left;
      } else {
        at += g_.subtree_size(left, outboard_);
        node_offset += left;
        node_len -= left;
      }
    }
    return at;
  }

  const geometry& g_;
  bool outboard_;
  const fastblake::bao::write_at_function& out_;
  std::uint64_t unit_;
  std::uint64_t received_ = 0;
  std::vector<std::byte> held_, buffer_;
  std::vector<node> subtrees_;
  bool finished_ = false;
  cv_bytes root_{};
  std::exception_ptr failure_;
};

fastblake::blake3::digest encode_descriptor(int fd, bool opened_here, std::string_view name,
                                            const fastblake::bao::write_at_function& out,
                                            const file_options& options, unsigned group_log,
                                            bool outboard) {
  os::file_status info;
  if (os::status(fd, info) != 0) throw_file_error(errno_code(), "fastblake::bao", name);
  if (!info.regular) {
    throw_file_error(std::make_error_code(info.directory ? std::errc::is_a_directory
                                                         : std::errc::invalid_argument),
                     "fastblake::bao", name);
  }
  // From the descriptor's offset, as the file functions hash it.
  std::uint64_t offset = 0;
  if (!opened_here) {
    const std::int64_t at = os::offset_of(fd);
    offset = at > 0 ? static_cast<std::uint64_t>(at) : 0;
  }
  const std::uint64_t size = info.size;
  const std::uint64_t content_len = std::min(size > offset ? size - offset : 0, options.max_length);
  const geometry g(content_len, group_log);
  std::array<std::byte, header_size> header;
  write_header(content_len, header.data());
  out(0, header);

  file_options limited = options;
  limited.max_length = content_len;
  file_encoder encoder(g, outboard, out);
  std::error_code ec;
  if (content_len == 0) {
    encoder.finish_empty();
  } else {
    ec = hash_fd(encoder, fd, limited, true, opened_here, &info);
  }
  if (encoder.failure()) std::rethrow_exception(encoder.failure());
  if (!ec && !encoder.done()) ec = make_error_code(file_errc::truncated);
  if (ec) throw_file_error(ec, "fastblake::bao", name);
  return fastblake::blake3::digest(encoder.root());
}

fastblake::blake3::digest encode_path(const std::filesystem::path& path,
                                      const fastblake::bao::write_at_function& out,
                                      const file_options& options, unsigned group_log,
                                      bool outboard) {
  const int fd = os::open_for_reading(path);
  if (fd < 0) throw_file_error(errno_code(), "fastblake::bao", quoted(path));
  struct closer {
    int fd;
    ~closer() { os::close_file(fd); }
  } const close_at_exit{fd};
  return encode_descriptor(fd, true, quoted(path), out, options, group_log, outboard);
}

}  // namespace
}  // namespace fastblake::internal::bao

namespace fastblake::bao {

blake3::digest encode_file(const std::filesystem::path& path, const write_at_function& out,
                           const file_options& options, unsigned group_log) {
  return internal::bao::encode_path(path, out, options, group_log, false);
}

blake3::digest encode_outboard_file(const std::filesystem::path& path, const write_at_function& out,
                                    const file_options& options, unsigned group_log) {
  return internal::bao::encode_path(path, out, options, group_log, true);
}

blake3::digest encode_fd(int fd, const write_at_function& out, const file_options& options,
                         unsigned group_log) {
  return internal::bao::encode_descriptor(fd, false, internal::descriptor_name(fd), out, options,
                                          group_log, false);
}

blake3::digest encode_outboard_fd(int fd, const write_at_function& out, const file_options& options,
                                  unsigned group_log) {
  return internal::bao::encode_descriptor(fd, false, internal::descriptor_name(fd), out, options,
                                          group_log, true);
}

}  // namespace fastblake::bao
