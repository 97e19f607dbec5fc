// b3sum's hashing of one input and printing of its output (hashing.hpp).
#include "hashing.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include <fastblake/detail/bytes.hpp>

#include "../common/system.hpp"
#include "check_line.hpp"

namespace b3sum::detail {
namespace {

namespace b3 = fastblake::blake3;

// Writes `length` output bytes from the reader as hex, in pieces: any length streams in
// bounded memory.
void write_hex(b3::output_reader& reader, std::uint64_t length) {
  std::array<std::uint8_t, 4096> block;
  std::array<char, 2 * block.size()> hex;
  for (std::uint64_t left = length; left > 0;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
    reader.fill(std::span(block).first(n));
    fastblake::detail::write_hex(block.data(), n, hex.data());
    out.write(std::string_view(hex.data(), 2 * n));
    check_output();
    left -= n;
  }
}

}  // namespace

// Rust's io::Error display (tools::rust_os_error), or the library's own error's message.
std::string os_error(const std::error_code& ec) {
  if (ec.category() != std::generic_category() && ec.category() != std::system_category()) {
    return ec.message();
  }
  return tools::rust_os_error(ec.value());
}

// Reports file progress to the display, if there is one.
void attach_progress(context& ctx, bool shared) {
  if (!ctx.progress) return;
  ctx.file.progress_step = 1u << 20;
  tools::progress_display* display = ctx.progress.get();
  if (shared) {
    ctx.file.progress = [display](std::uint64_t done, std::uint64_t total) {
      display->update_shared(done, total);
      return true;
    };
  } else {
    ctx.file.progress = [display](std::uint64_t done, std::uint64_t total) {
      display->update(done, total);
      return true;
    };
  }
}

// The whole job's progress, for a distributor.
std::function<void(std::uint64_t, std::uint64_t)> progress_callback(const context& ctx) {
  if (!ctx.progress) return {};
  tools::progress_display* display = ctx.progress.get();
  return
      [display](std::uint64_t done, std::uint64_t total) { display->update_shared(done, total); };
}

// Hashes one input ("-" is standard input, read as a stream) into a reader; on failure, the
// errno-style error.
std::optional<b3::output_reader> hash_input(const context& ctx, const std::string& name,
                                            std::error_code& ec, std::string& error) {
  b3::hasher h = ctx.mode;
  b3::file_options file = ctx.file;
  if (ctx.progress) ctx.progress->start(lossy_utf8(name));
  if (name == "-") {
    if (ctx.opt.keyed) {
      error = "Cannot open `-` in keyed mode";
      return std::nullopt;
    }
    file.strategy = b3::file_strategy::stream;
    b3::update_from_fd(h, tools::standard_input, file, ec);
  } else {
    b3::update_from_file(h, tools::path_of(name), file, ec);
  }
  if (ctx.progress) ctx.progress->finish();
  if (ec) {
    error = os_error(ec);
    return std::nullopt;
  }
  return h.finalize_xof();
}

void print_output(const context& ctx, b3::output_reader reader, const std::string& name) {
  if (ctx.progress) ctx.progress->clear();
  reader.seek(ctx.seek);
  if (ctx.opt.raw) {
    std::vector<std::uint8_t> bytes(64 * 1024);
    for (std::uint64_t left = ctx.length; left > 0;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, bytes.size()));
      reader.fill(std::span(bytes).first(n));
      out.write(std::string_view(reinterpret_cast<const char*>(bytes.data()), n));
      check_output();
      left -= n;
    }
    return;
  }
  // -z: no escaping, as GNU.
  bool escaped = false;
  const std::string shown = ctx.opt.zero ? portable_name(name) : shown_name(name, escaped);
  if (escaped && !ctx.opt.no_names) out.put('\\');
  if (ctx.opt.tag && !ctx.opt.no_names) out.write("BLAKE3 (" + shown + ") = ");
  write_hex(reader, ctx.length);
  if (!ctx.opt.tag && !ctx.opt.no_names) out.write("  " + shown);
  out.put(ctx.opt.zero ? '\0' : '\n');
  check_output();
}

}  // namespace b3sum::detail
