// bao: Bao encodings made, decoded and sliced from the command line, as the Rust `bao` 0.13
// tool does (its commands, arguments, standard streams, messages and exit statuses), with
// chunk groups (--group) besides. docs/bao.md describes it.
#include "run.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
#include <fastblake/file.hpp>

#include "../common/io.hpp"
#include "../common/progress.hpp"
#include "../common/run.hpp"
#include "../common/system.hpp"
#include "cli.hpp"

namespace bao_tool {
namespace {

namespace b3 = fastblake::blake3;
namespace bao = fastblake::bao;
using detail::arguments;
using detail::fatal;
using detail::number;
using detail::usage_error;

// An OS error as Rust's std::io::Error prints one.
std::string os_error(int error) { return tools::rust_os_error(error); }

// Any failure's message, as the Rust tool prints the same one.
std::string message_of(const std::exception& e) {
  if (const auto* b = dynamic_cast<const bao::error*>(&e)) {
    // (The Rust tool's decoders meet a short input in read_exact, whose words these are.)
    return b->code() == bao::errc::hash_mismatch ? "hash mismatch" : "failed to fill whole buffer";
  }
  if (const auto* s = dynamic_cast<const std::system_error*>(&e)) {
    const std::error_category& c = s->code().category();
    if (c == std::generic_category() || c == std::system_category()) {
      return os_error(s->code().value());
    }
    return s->code().message();
  }
  return e.what();
}

unsigned group_of(const arguments& a) {
  if (!a.group) return 0;
  const std::uint64_t k = number(*a.group, "--group");
  if (k > bao::max_group_log) fatal("--group takes 0 to 32 (chunk groups of 2^k chunks)");
  return static_cast<unsigned>(k);
}

b3::digest parse_hash(const std::string& hex) {
  if (hex.size() % 2 != 0) fatal("Odd number of digits");
  for (std::size_t i = 0; i < hex.size(); ++i) {
    if (std::isxdigit(static_cast<unsigned char>(hex[i])) == 0) {
      fatal(std::string("Invalid character '") + hex[i] + "' at position " + std::to_string(i));
    }
  }
  const auto digest = b3::digest::from_hex(hex);
  if (hex.size() != 2 * b3::digest::size() || !digest) fatal("wrong length hash");
  return *digest;
}

bool is_regular(int fd) {
  tools::file_status status;
  return tools::status_of(fd, status) && status.kind == tools::file_kind::regular;
}

// An input or output: standard input or output (no name, or -), or a file.
struct stream {
  int fd = -1;
  bool owned = false;
  std::string name = "-";

  stream() = default;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream() {
    if (owned) tools::close_descriptor(fd);
  }
  bool is_standard() const { return !owned; }
  // Whether it can be read at any offset (a pipe, a FIFO or a terminal cannot).
  bool seekable() const { return tools::seekable(fd); }
};

bool names_standard(const std::string* path) { return path == nullptr || *path == "-"; }

// 0, or the errno of the failed open.
int try_open_input(stream& s, const std::string* path) {
  if (names_standard(path)) {
    s.fd = tools::standard_input;
    return 0;
  }
  s.fd = tools::open_for_reading(*path);
  if (s.fd < 0) return errno;
  s.owned = true;
  s.name = *path;
  return 0;
}

void open_input(stream& s, const std::string* path) {
  if (const int error = try_open_input(s, path)) fatal(os_error(error));
}

// Refuses an output that is one of the inputs (the same file through any name or link), before
// anything is written to it: writing an encoding or a decoding over its own input destroys
// the input as it is read.
void refuse_same_file(const stream& out, std::initializer_list<const stream*> inputs) {
  tools::file_status o;
  if (!tools::status_of(out.fd, o) || o.kind != tools::file_kind::regular) return;
  for (const stream* in : inputs) {
    tools::file_status i;
    if (in != nullptr && in->fd >= 0 && tools::status_of(in->fd, i) && i.same_file_as(o)) {
      fatal("'" + in->name + "' and '" + out.name + "' are the same file");
    }
  }
}

// An output: standard output, or a file opened for reading and writing, created if need be,
// and not emptied yet (empty_output does that once it is known to be none of the inputs).
void open_output(stream& s, const std::string* path) {
  if (names_standard(path)) {
    s.fd = tools::standard_output;
    return;
  }
  s.fd = tools::open_for_update(*path);
  if (s.fd < 0) fatal(os_error(errno));
  s.owned = true;
  s.name = *path;
}

// Refuses an output that is one of the inputs, then empties an output file, as the Rust tool's
// truncating open leaves it.
void empty_output(const stream& out, std::initializer_list<const stream*> inputs) {
  refuse_same_file(out, inputs);
  if (out.owned && is_regular(out.fd) && !tools::resize_file(out.fd, 0)) {
    fatal(os_error(errno));
  }
}

// Opens the outboard after the output, as the Rust tool does: where it cannot be opened, the
// output is left as the Rust tool leaves it (emptied) and the run ends.
void open_outboard(stream& outboard, const std::string& path, const stream& out, const stream& in) {
  if (const int error = try_open_input(outboard, &path)) {
    empty_output(out, {&in});
    fatal(os_error(error));
  }
}

const std::string* nth(const std::vector<std::string>& v, std::size_t i) {
  return i < v.size() ? &v[i] : nullptr;
}

// A stream read in order only (a pipe, a FIFO): the reader and the slicers read an encoding
// from its start to its end, skipping what they do not need by reading it; a request behind
// what was read is refused in the Rust tool's words (standard input's, and a FIFO's seek).
class in_order {
 public:
  in_order(int fd, bool standard) : fd_(fd), standard_(standard) {}

  std::size_t operator()(std::uint64_t offset, std::span<std::byte> out) {
    if (offset < at_) fatal(standard_ ? "input must be a real file" : os_error(ESPIPE));
    std::byte skip[65536];
    while (at_ < offset) {
      const auto n = read_some(std::span(skip, std::min<std::uint64_t>(sizeof skip, offset - at_)));
      if (n == 0) return 0;
    }
    std::size_t got = 0;
    while (got < out.size()) {
      const std::size_t n = read_some(out.subspan(got));
      if (n == 0) break;
      got += n;
    }
    return got;
  }

 private:
  std::size_t read_some(std::span<std::byte> into) {
    for (;;) {
      const std::ptrdiff_t n = tools::read_some(fd_, into.data(), into.size());
      if (n < 0) throw std::system_error(errno, std::generic_category(), "read");
      at_ += static_cast<std::uint64_t>(n);
      return static_cast<std::size_t>(n);
    }
  }

  int fd_;
  bool standard_;
  std::uint64_t at_ = 0;
};

// Standard input, and any input that cannot seek, read in order; a file with pread.
bao::read_at_function source_of(const stream& s) {
  if (s.is_standard() || !s.seekable()) return in_order(s.fd, s.is_standard());
  return bao::read_from_fd(s.fd);
}

// Writes to out; false where the reader went away (a closed pipe), which ends decoding quietly.
bool write_out(int fd, std::span<const std::byte> bytes) {
  if (tools::write_all(
          fd, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()))) {
    return true;
  }
  if (errno == EPIPE) return false;
  fatal(os_error(errno));
}

int hash(const arguments& a) {
  if (a.outboard || a.start || a.count || a.group || a.progress) usage_error();
  auto hash_one = [](const std::string* path) {
    stream in;
    if (names_standard(path)) {
      in.fd = tools::standard_input;
    } else {
      in.fd = tools::open_for_reading(*path);
      if (in.fd < 0) throw std::system_error(errno, std::generic_category());
      in.owned = true;
    }
    b3::hasher h;
    std::error_code ec;
    b3::update_from_fd(h, in.fd, {}, ec);
    if (ec) throw std::system_error(ec);
    return h.finalize();
  };
  tools::output out(tools::standard_output);
  int status = 0;
  if (a.positional.empty()) {
    try {
      out.write(hash_one(nullptr).to_hex() + "\n");
    } catch (const std::exception& e) {
      out.flush();
      fatal(message_of(e));
    }
  }
  for (const std::string& name : a.positional) {
    // As the Rust tool: each input's error on standard output, and on to the next.
    try {
      const std::string hex = hash_one(&name).to_hex();
      out.write(a.positional.size() > 1 ? hex + "  " + name + "\n" : hex + "\n");
    } catch (const std::exception& e) {
      out.write("bao: " + name + ": " + message_of(e) + "\n");
      status = 1;
    }
  }
  if (!out.flush()) fatal(os_error(out.error()));
  return status;
}

// --progress's bar for one input, where standard error is a terminal.
std::unique_ptr<tools::progress_display> progress_for(const arguments& a, const std::string& name) {
  if (!a.progress || !tools::is_terminal(tools::standard_error)) return nullptr;
  auto display = std::make_unique<tools::progress_display>(tools::standard_error, 0, 1);
  display->start(name);
  return display;
}

// Standard input, or anything else that is no regular file, whose length is known only at its
// end: encoded as it comes by bao::encoder, which moves the encoding into place at the end.
void encode_stream(int in, int out, bao::format f, unsigned k, tools::progress_display* display) {
  bao::encoder e(bao::read_from_fd(out), bao::write_to_fd(out), f, k);
  // Two buffers: the next read while the last one is encoded, on the pool, as the file
  // functions read streams (a pipe's writer waits for no one here).
  constexpr std::size_t buffer_size = 4u << 20;
  std::vector<std::byte> current(buffer_size), next(buffer_size);
  auto fill = [in](std::vector<std::byte>& buffer) {
    std::size_t got = 0;
    while (got < buffer.size()) {
      const std::ptrdiff_t n = tools::read_some(in, buffer.data() + got, buffer.size() - got);
      if (n < 0) throw std::system_error(errno, std::generic_category());
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    return got;
  };
  fastblake::thread_pool& pool = fastblake::thread_pool::default_pool();
  std::size_t have = fill(current);
  while (have > 0) {
    std::size_t got = 0;
    pool.join([&] { e.update(std::span(current).first(have)); }, [&] { got = fill(next); });
    if (display != nullptr) display->update(e.count(), 0);
    std::swap(current, next);
    have = got;
  }
  e.finalize();
}

int encode(const arguments& a) {
  if (a.start || a.count || a.positional.size() != (a.outboard ? 1u : 2u)) usage_error();
  const unsigned k = group_of(a);
  stream in, out;
  open_input(in, &a.positional[0]);
  const std::string* out_path = a.outboard ? &*a.outboard : &a.positional[1];
  if (names_standard(out_path)) fatal("output must be a real file");
  // Not truncated at open: an existing output's pages and blocks are written over, which costs
  // half as much as freeing them and taking new ones, and it is cut to the encoding's size at
  // the end (to nothing on a failure, as a truncating open would have left it at most).
  out.fd = tools::open_for_update(*out_path);
  if (out.fd < 0) fatal(os_error(errno));
  out.owned = true;
  out.name = *out_path;
  refuse_same_file(out, {&in});
  const bool regular_output = is_regular(out.fd);
  auto fail = [&](const std::string& message) {
    if (regular_output) (void)tools::resize_file(out.fd, 0);
    fatal(message);
  };
  std::unique_ptr<tools::progress_display> display = progress_for(a, a.positional[0]);
  fastblake::file_options options;
  if (display) {
    options.progress_step = 1u << 20;
    options.progress = [&](std::uint64_t done, std::uint64_t total) {
      display->update(done, total);
      return true;
    };
  }
  try {
    // As the file functions read: a big file mapped in windows, each encoded on every core.
    if (!is_regular(in.fd)) {
      encode_stream(in.fd, out.fd, a.outboard ? bao::format::outboard : bao::format::combined, k,
                    display.get());
    } else if (a.outboard) {
      bao::encode_outboard_fd(in.fd, bao::write_to_fd(out.fd), options, k);
    } else {
      bao::encode_fd(in.fd, bao::write_to_fd(out.fd), options, k);
    }
    display.reset();
  } catch (const std::system_error& e) {
    display.reset();
    if (e.code() == fastblake::file_errc::truncated) {
      fail("the input shrank while it was being encoded");
    }
    fail(message_of(e));
  } catch (const std::exception& e) {
    display.reset();
    fail(message_of(e));
  }
  if (regular_output) {
    std::array<std::byte, bao::header_size> header;
    try {
      if (bao::read_from_fd(out.fd)(0, header) != header.size()) fail(os_error(EIO));
    } catch (const std::system_error& e) {
      fail(message_of(e));
    }
    std::uint64_t content_len = 0;
    for (std::size_t i = header.size(); i-- > 0;) {
      content_len = content_len << 8 | std::to_integer<std::uint64_t>(header[i]);
    }
    const std::uint64_t size =
        a.outboard ? bao::outboard_size(content_len, k) : bao::encoded_size(content_len, k);
    if (!tools::resize_file(out.fd, size)) fail(os_error(errno));
  }
  return 0;
}

// Copies what the reader gives to out, up to limit bytes; a failure after some bytes were
// written ends it there, with those bytes out. display, if any, shows the bytes written of
// total (0: unknown).
int copy_checked(bao::reader& r, int out, std::uint64_t limit,
                 std::unique_ptr<tools::progress_display> display, std::uint64_t total) {
  std::vector<std::byte> buffer(1 << 20);
  std::uint64_t done = 0;
  try {
    while (limit > 0) {
      const std::size_t n = r.read(std::span(buffer).first(
          static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), limit))));
      if (n == 0) break;
      if (!write_out(out, std::span(buffer).first(n))) return 0;
      limit -= n;
      done += n;
      if (display) display->update(done, total);
    }
  } catch (const std::exception& e) {
    display.reset();
    fatal(message_of(e));
  }
  return 0;
}

// With --count=0, what the Rust tool's seek checks: the path to start's leaf, or to the last
// leaf where start is at or past the end; nothing where start is in the first leaf and the
// input goes past it (that seek reads nothing).
void check_as_seek_would(bao::reader& r, std::uint64_t start, unsigned k) {
  try {
    if (start >= std::uint64_t{b3::chunk_size} << k || start >= r.unchecked_length()) {
      std::byte first;
      (void)r.read(std::span(&first, 1));
    }
  } catch (const std::exception& e) {
    fatal(message_of(e));
  }
}

int decode(const arguments& a) {
  if (a.positional.empty() || a.positional.size() > 3) usage_error();
  // docopt's order of reading them: --count before --start.
  const std::uint64_t limit = a.count ? number(*a.count, "--count") : ~std::uint64_t{0};
  const std::uint64_t start = a.start ? number(*a.start, "--start") : 0;
  const unsigned k = group_of(a);
  const b3::digest hash = parse_hash(a.positional[0]);
  stream in, outboard, out;
  open_input(in, nth(a.positional, 1));
  open_output(out, nth(a.positional, 2));
  if (a.outboard) open_outboard(outboard, *a.outboard, out, in);
  empty_output(out, {&in, &outboard});
  // Standard input is read in order, and refused with --start, as the Rust tool refuses it; a
  // FIFO is read in order too, what comes before start read and left behind.
  if (a.start && (in.is_standard() || (a.outboard && outboard.is_standard()))) {
    fatal("input must be a real file");
  }
  bao::reader r = a.outboard ? bao::reader(hash, source_of(outboard), source_of(in), k)
                             : bao::reader(hash, source_of(in), k);
  r.seek(start);
  r.use_pool(fastblake::thread_pool::default_pool());
  if (limit == 0) {
    if (a.start) check_as_seek_would(r, start, k);
    return 0;
  }
  std::unique_ptr<tools::progress_display> display =
      progress_for(a, a.positional.size() > 1 ? a.positional[1] : std::string("-"));
  std::uint64_t total = 0;
  // The length, once checked (the path to the last leaf), where the input can be read twice.
  if (display && !in.is_standard() && in.seekable() &&
      !(a.outboard && (outboard.is_standard() || !outboard.seekable()))) {
    try {
      const std::uint64_t len = r.length();
      total = std::min(limit, len > start ? len - start : 0);
    } catch (const std::exception& e) {
      display.reset();
      fatal(message_of(e));
    }
  }
  return copy_checked(r, out.fd, limit, std::move(display), total);
}

int slice(const arguments& a) {
  if (a.start || a.count || a.progress || a.positional.size() < 2 || a.positional.size() > 4) {
    usage_error();
  }
  const std::uint64_t start = number(a.positional[0], "<start>");
  const std::uint64_t count = number(a.positional[1], "<count>");
  const unsigned k = group_of(a);
  stream in, outboard, out;
  open_input(in, nth(a.positional, 2));
  open_output(out, nth(a.positional, 3));
  if (a.outboard) open_outboard(outboard, *a.outboard, out, in);
  empty_output(out, {&in, &outboard});
  if (in.is_standard() || (a.outboard && outboard.is_standard())) {
    fatal("input must be a real file");
  }
  // Written as it is read, whatever its size: a slice of a large range takes no more memory.
  const bao::write_at_function to_out = [&](std::uint64_t, std::span<const std::byte> bytes) {
    if (!tools::write_all(
            out.fd, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()))) {
      throw std::system_error(errno, std::generic_category(), "write");
    }
  };
  try {
    // (A FIFO is read in order: the slicer reads the encoding from its start to its end.)
    if (a.outboard) {
      bao::extract_slice_outboard(source_of(outboard), source_of(in), start, count, to_out, k);
    } else {
      bao::extract_slice(source_of(in), start, count, to_out, k);
    }
  } catch (const std::exception& e) {
    fatal(message_of(e));
  }
  return 0;
}

int decode_slice(const arguments& a) {
  if (a.outboard || a.start || a.count || a.positional.size() < 3 || a.positional.size() > 5) {
    usage_error();
  }
  const std::uint64_t start = number(a.positional[1], "<start>");
  const std::uint64_t count = number(a.positional[2], "<count>");
  const unsigned k = group_of(a);
  const b3::digest hash = parse_hash(a.positional[0]);
  stream in, out;
  open_input(in, nth(a.positional, 3));
  open_output(out, nth(a.positional, 4));
  empty_output(out, {&in});
  // The slice read once, in order, its bytes written as they are checked: bounded memory for a
  // slice of any size, from a pipe too.
  bao::reader r = bao::reader::over_slice(hash, in_order(in.fd, in.is_standard()), start, count, k);
  r.use_pool(fastblake::thread_pool::default_pool());
  return copy_checked(r, out.fd, ~std::uint64_t{0},
                      progress_for(a, a.positional.size() > 3 ? a.positional[3] : std::string("-")),
                      0);
}

int run_unguarded(int argc, char** argv) {
  tools::prepare_standard_streams();
  const arguments a = detail::parse(argc, argv);
  if (a.command == "hash") return hash(a);
  if (a.command == "encode") return encode(a);
  if (a.command == "decode") return decode(a);
  if (a.command == "slice") return slice(a);
  if (a.command == "decode-slice") return decode_slice(a);
  usage_error();
}

}  // namespace

int run(int argc, char** argv) {
  try {
    return run_unguarded(argc, argv);
  } catch (const tools::exit_status& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    tools::write_all(tools::standard_error, "Error: Cannot allocate memory (os error 12)\n");
    return 1;
  }
}

}  // namespace bao_tool
