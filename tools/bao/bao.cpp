// bao: Bao encodings made, decoded and sliced from the command line, as the Rust `bao` 0.13
// tool does (its commands, arguments, standard streams, messages and exit statuses), with
// chunk groups (--group) besides. docs/bao.md describes it.
#include "run.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

namespace bao_tool {
namespace {

namespace b3 = fastblake::blake3;
namespace bao = fastblake::bao;

// The Rust tool's version, whose command line this one takes.
constexpr std::string_view compatible_version = "0.13.1";

constexpr std::string_view usage_text =
    "Usage: bao hash [<inputs>...]\n"
    "       bao encode <input> (<output> | --outboard=<file>) [--group=<k>] [--progress]\n"
    "       bao decode <hash> [<input>] [<output>] [--outboard=<file>] [--start=<offset>] "
    "[--count=<count>] [--group=<k>] [--progress]\n"
    "       bao slice <start> <count> [<input>] [<output>] [--outboard=<file>] [--group=<k>]\n"
    "       bao decode-slice <hash> <start> <count> [<input>] [<output>] [--group=<k>] "
    "[--progress]\n"
    "       bao (--help | --version)\n";

constexpr std::string_view help_body =
    "\n"
    "Bao encodings: an input with its BLAKE3 tree's parent nodes, so that any part of it can be\n"
    "checked against the 32-byte hash alone.\n"
    "\n"
    "Commands:\n"
    "  hash          the BLAKE3 hash of each input (of standard input without one)\n"
    "  encode        the combined encoding of <input> into <output>, a file; or the outboard\n"
    "                encoding (the parents alone) into --outboard's file\n"
    "  decode        the input an encoding holds, each byte checked before it is written\n"
    "  slice         the part of an encoding that a reader of <count> bytes from <start> needs\n"
    "  decode-slice  the bytes such a slice holds, each checked before it is written\n"
    "A name of - or none is standard input or output.\n"
    "\n"
    "Options:\n"
    "      --outboard=<file>  the outboard encoding, beside <input> (the original): written by\n"
    "                         encode, read by decode and slice\n"
    "      --start=<offset>   decode from this offset of the input on (<input> must be a file)\n"
    "      --count=<count>    decode at most this many bytes\n"
    "      --group=<k>        leaves of 2^k chunks (iroh's chunk groups; 0, Bao's own, by\n"
    "                         default): decoding and slicing need the k of the encoding\n"
    "      --progress         encode, decode and decode-slice: a progress bar on standard\n"
    "                         error, when it is a terminal\n"
    "      --help             print this help\n"
    "      --version          print the version\n"
    "\n"
    "Exit status: 0, or 1 on any error (a node that does not match the hash, a truncated\n"
    "encoding, an input or output that fails, a wrong command line).\n";

void to_stderr(std::string_view text) { tools::write_all(STDERR_FILENO, text); }

[[noreturn]] void fatal(const std::string& message) {
  to_stderr("Error: " + message + "\n");
  tools::finish(1);
}

[[noreturn]] void usage_error() {
  to_stderr("Invalid arguments.\n\n" + std::string(usage_text));
  tools::finish(1);
}

// An OS error as Rust's std::io::Error prints one.
std::string os_error(int error) {
  return std::string(std::strerror(error)) + " (os error " + std::to_string(error) + ")";
}

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

struct arguments {
  std::string command;
  std::vector<std::string> positional;
  std::optional<std::string> outboard, start, count, group;
  bool progress = false;
};

// A command line that docopt, the Rust tool's parser, refuses before matching it to the usage:
// its message, then the usage.
[[noreturn]] void refused_flag(const std::string& message) {
  to_stderr(message + "\n\n" + std::string(usage_text));
  tools::finish(1);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// docopt's message for a flag it does not know, with the nearest flag or command (fewer than
// three edits away) as its suggestion.
[[noreturn]] void unknown_flag(std::string_view flag) {
  static constexpr std::array<std::string_view, 12> known = {
      "--outboard", "--start", "--count", "--group", "--progress", "--help",
      "--version",  "hash",    "encode",  "decode",  "slice",      "decode-slice"};
  std::string_view best;
  std::size_t best_distance = 3;
  for (const std::string_view name : known) {
    const std::size_t d = edit_distance(flag, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  std::string message = "Unknown flag: '" + std::string(flag) + "'";
  if (!best.empty()) message += ". Did you mean '" + std::string(best) + "'?";
  refused_flag(message);
}

// docopt's way, as the Rust tool parses: options anywhere, --name=value or --name value (no
// abbreviations, no short flags), "--" ends them, "-" is a name (standard input or output);
// --help and --version alone. Its errors in its order: a flag it cannot take, in the order
// given; then a command line that matches no usage ("Invalid arguments."); then a number that
// is not one (number()).
arguments parse(int argc, char** argv) {
  arguments a;
  bool help = false, version = false, options_done = false, repeated = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (!options_done && arg == "--") {
      options_done = true;
      continue;
    }
    if (options_done || arg.size() < 2 || arg[0] != '-') {
      (a.command.empty() ? a.command : a.positional.emplace_back()) = arg;
      continue;
    }
    if (arg[1] != '-') unknown_flag(arg.substr(0, 2));
    const std::size_t eq = arg.find('=');
    const std::string_view flag = arg.substr(0, eq);
    bool* switch_slot = flag == "--help"       ? &help
                        : flag == "--version"  ? &version
                        : flag == "--progress" ? &a.progress
                                               : nullptr;
    std::optional<std::string>* value_slot = flag == "--outboard" ? &a.outboard
                                             : flag == "--start"  ? &a.start
                                             : flag == "--count"  ? &a.count
                                             : flag == "--group"  ? &a.group
                                                                  : nullptr;
    if (switch_slot != nullptr) {
      if (eq != std::string_view::npos) {
        refused_flag("Flag '" + std::string(flag) + "' cannot have an argument, but found '" +
                     std::string(arg.substr(eq + 1)) + "'.");
      }
      repeated = repeated || *switch_slot;
      *switch_slot = true;
      continue;
    }
    if (value_slot == nullptr) unknown_flag(flag);
    repeated = repeated || value_slot->has_value();
    if (eq != std::string_view::npos) {
      *value_slot = std::string(arg.substr(eq + 1));
    } else if (i + 1 < argc) {
      *value_slot = argv[++i];
    } else {
      refused_flag("Expected argument for flag '" + std::string(flag) +
                   "' but reached end of arguments.");
    }
  }
  if (repeated || ((help || version) && argc != 2)) usage_error();
  if (help) {
    tools::write_all(STDOUT_FILENO, std::string(usage_text) + std::string(help_body));
    tools::finish(0);
  }
  if (version) {
    tools::write_all(STDOUT_FILENO, std::string(compatible_version) + " (fastblake " +
                                        FASTBLAKE_VERSION_STRING + ")\n");
    tools::finish(0);
  }
  return a;
}

// A number of the command line, as docopt reads one: blank is 0; else what Rust's u64 parse
// takes (digits, an optional "+"), or docopt's message naming the argument (the usage's key).
std::uint64_t number(const std::string& text, std::string_view key) {
  if (text.find_first_not_of(" \t\n\v\f\r") == std::string::npos) return 0;
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (begin == end || ec != std::errc() || ptr != end) {
    to_stderr("Could not deserialize '" + text + "' to u64 for '" + std::string(key) + "'.\n");
    tools::finish(1);
  }
  return value;
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

// An input or output: standard input or output (no name, or -), or a file.
struct stream {
  int fd = -1;
  bool owned = false;

  stream() = default;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream() {
    if (owned) ::close(fd);
  }
  bool is_standard() const { return !owned; }
};

bool names_standard(const std::string* path) { return path == nullptr || *path == "-"; }

void open_input(stream& s, const std::string* path) {
  if (names_standard(path)) {
    s.fd = STDIN_FILENO;
    return;
  }
  s.fd = tools::open_above_standard(path->c_str(), O_RDONLY | O_CLOEXEC);
  if (s.fd < 0) fatal(os_error(errno));
  s.owned = true;
}

void open_output(stream& s, const std::string* path) {
  if (names_standard(path)) {
    s.fd = STDOUT_FILENO;
    return;
  }
  s.fd = tools::open_above_standard(path->c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC);
  if (s.fd < 0) fatal(os_error(errno));
  s.owned = true;
}

const std::string* nth(const std::vector<std::string>& v, std::size_t i) {
  return i < v.size() ? &v[i] : nullptr;
}

// A stream read in order only (a pipe): the reader and the slice decoder read an encoding from
// its start to its end without going back; a request behind what was read is refused.
class in_order {
 public:
  explicit in_order(int fd) : fd_(fd) {}

  std::size_t operator()(std::uint64_t offset, std::span<std::byte> out) {
    if (offset < at_) fatal("input must be a real file");
    std::byte skip[4096];
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
      const ssize_t n = ::read(fd_, into.data(), into.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw std::system_error(errno, std::generic_category(), "read");
      at_ += static_cast<std::uint64_t>(n);
      return static_cast<std::size_t>(n);
    }
  }

  int fd_;
  std::uint64_t at_ = 0;
};

bao::read_at_function source_of(const stream& s) {
  if (s.is_standard()) return in_order(s.fd);
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
      in.fd = STDIN_FILENO;
    } else {
      in.fd = tools::open_above_standard(path->c_str(), O_RDONLY | O_CLOEXEC);
      if (in.fd < 0) throw std::system_error(errno, std::generic_category());
      in.owned = true;
    }
    b3::hasher h;
    std::error_code ec;
    b3::update_from_fd(h, in.fd, {}, ec);
    if (ec) throw std::system_error(ec);
    return h.finalize();
  };
  tools::output out(STDOUT_FILENO);
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
  if (!a.progress || ::isatty(STDERR_FILENO) == 0) return nullptr;
  auto display = std::make_unique<tools::progress_display>(STDERR_FILENO, 0, 1);
  display->start(name);
  return display;
}

bool is_regular(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
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
      const ssize_t n = ::read(in, buffer.data() + got, buffer.size() - got);
      if (n < 0 && errno == EINTR) continue;
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
  out.fd = tools::open_above_standard(out_path->c_str(), O_RDWR | O_CREAT | O_CLOEXEC);
  if (out.fd < 0) fatal(os_error(errno));
  out.owned = true;
  const bool regular_output = is_regular(out.fd);
  auto fail = [&](const std::string& message) {
    if (regular_output) (void)::ftruncate(out.fd, 0);
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
    errno = 0;
    if (::pread(out.fd, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size())) {
      fail(os_error(errno != 0 ? errno : EIO));
    }
    std::uint64_t content_len = 0;
    for (std::size_t i = header.size(); i-- > 0;) {
      content_len = content_len << 8 | std::to_integer<std::uint64_t>(header[i]);
    }
    const std::uint64_t size =
        a.outboard ? bao::outboard_size(content_len, k) : bao::encoded_size(content_len, k);
    if (::ftruncate(out.fd, static_cast<off_t>(size)) != 0) fail(os_error(errno));
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
  if (a.outboard) open_input(outboard, &*a.outboard);
  if (a.start && (in.is_standard() || (a.outboard && outboard.is_standard()))) {
    fatal("input must be a real file");
  }
  bao::reader r = a.outboard ? bao::reader(hash, source_of(outboard), source_of(in), k)
                             : bao::reader(hash, source_of(in), k);
  r.seek(start);
  r.use_pool(fastblake::thread_pool::default_pool());
  std::unique_ptr<tools::progress_display> display =
      progress_for(a, a.positional.size() > 1 ? a.positional[1] : std::string("-"));
  std::uint64_t total = 0;
  // The length, once checked (the path to the last leaf), where the input can be read twice.
  if (display && !in.is_standard() && !(a.outboard && outboard.is_standard())) {
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
  if (a.outboard) open_input(outboard, &*a.outboard);
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
    if (a.outboard) {
      bao::extract_slice_outboard(bao::read_from_fd(outboard.fd), bao::read_from_fd(in.fd), start,
                                  count, to_out, k);
    } else {
      bao::extract_slice(bao::read_from_fd(in.fd), start, count, to_out, k);
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
  // The slice read once, in order, its bytes written as they are checked: bounded memory for a
  // slice of any size, from a pipe too.
  bao::reader r = bao::reader::over_slice(hash, in_order(in.fd), start, count, k);
  r.use_pool(fastblake::thread_pool::default_pool());
  return copy_checked(r, out.fd, ~std::uint64_t{0},
                      progress_for(a, a.positional.size() > 3 ? a.positional[3] : std::string("-")),
                      0);
}

int run_unguarded(int argc, char** argv) {
  tools::fill_closed_standard_descriptors();
  const arguments a = parse(argc, argv);
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
    tools::write_all(STDERR_FILENO, "Error: Cannot allocate memory (os error 12)\n");
    return 1;
  }
}

}  // namespace bao_tool
