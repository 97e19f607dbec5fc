// b3sum: a drop-in for the official BLAKE3 command-line tool, on fastblake.
//
// Output, messages and exit statuses follow the official b3sum (checked byte for byte against
// Debian's b3sum 1.2 by tests/cli/b3sum_test.py); --seek, --tag and the escaping of carriage
// returns follow later official versions; -j/--jobs is fastblake's own.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "check_line.hpp"

namespace {

using b3sum::lossy_utf8;
using b3sum::shown_name;
namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

constexpr std::string_view official_version = "1.8.2";

constexpr std::string_view usage_text = "Usage: b3sum [OPTIONS] [FILE]...\n";

constexpr std::string_view help_text =
    "Print or check BLAKE3 checksums (fastblake)\n"
    "\n"
    "Usage: b3sum [OPTIONS] [FILE]...\n"
    "\n"
    "Arguments:\n"
    "  [FILE]...  Files to hash, or checkfiles to check\n"
    "\n"
    "Options:\n"
    "      --keyed                 Use the keyed mode, reading the 32-byte key from stdin\n"
    "      --derive-key <CONTEXT>  Use the key derivation mode, with the given context string\n"
    "  -l, --length <LEN>          The number of output bytes, before hex encoding [default: 32]\n"
    "      --seek <SEEK>           The starting output byte offset, before hex encoding\n"
    "                              [default: 0]\n"
    "      --num-threads <NUM>     The maximum number of threads to use\n"
    "      --no-mmap               Disable memory mapping (read the files instead)\n"
    "      --no-names              Omit filenames in the output\n"
    "      --raw                   Write raw output bytes to stdout, rather than hex; one input "
    "only\n"
    "      --tag                   Output BSD-style checksums: BLAKE3 ([FILE]) = [HASH]\n"
    "  -c, --check                 Read BLAKE3 sums from the [FILE]s and check them\n"
    "      --quiet                 Skip printing OK for each checked file (with --check)\n"
    "  -j, --jobs <N>              Hash up to N files at once, printing in argument order\n"
    "      --progress              Show progress on stderr for large inputs, if it is a terminal\n"
    "  -h, --help                  Print help\n"
    "  -V, --version               Print version\n";

struct options {
  std::vector<std::string> files;
  bool keyed = false;
  std::optional<std::string> derive_key;
  std::optional<std::string> length;
  std::optional<std::string> seek;
  std::optional<std::string> num_threads;
  std::optional<std::string> jobs;
  bool no_mmap = false;
  bool no_names = false;
  bool raw = false;
  bool tag = false;
  bool check = false;
  bool quiet = false;
  bool progress = false;
};

// A usage error, reported as the official tool does, exit status 2.
[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "error: %s\n\n%.*s\nFor more information, try '--help'.\n", message.c_str(),
               static_cast<int>(usage_text.size()), usage_text.data());
  std::exit(2);
}

// Rust's anyhow error from main: "Error: <message>", exit status 1.
[[noreturn]] void fatal(const std::string& message) {
  std::fprintf(stderr, "Error: %s\n", message.c_str());
  std::exit(1);
}

options parse(int argc, char** argv) {
  options o;
  bool only_files = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (only_files || arg == "-" || arg.empty() || arg[0] != '-') {
      o.files.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    // --name=value, --name value, -x value, -xvalue.
    std::string name(arg);
    std::optional<std::string> inline_value;
    if (arg.starts_with("--")) {
      if (const auto eq = arg.find('='); eq != std::string_view::npos) {
        name = std::string(arg.substr(0, eq));
        inline_value = std::string(arg.substr(eq + 1));
      }
    } else if (arg.size() > 2) {
      name = std::string(arg.substr(0, 2));
      inline_value = std::string(arg.substr(2));
    }
    const auto value = [&](const char* shown) -> std::string {
      if (inline_value) return *inline_value;
      if (i + 1 >= argc) {
        usage_error(std::string("a value is required for '") + shown + "' but none was supplied");
      }
      return argv[++i];
    };
    const auto flag = [&](bool& target) {
      if (inline_value) usage_error("unexpected value for '" + name + "'");
      target = true;
    };
    if (name == "--keyed") {
      flag(o.keyed);
    } else if (name == "--derive-key") {
      o.derive_key = value("--derive-key <CONTEXT>");
    } else if (name == "-l" || name == "--length") {
      o.length = value("--length <LEN>");
    } else if (name == "--seek") {
      o.seek = value("--seek <SEEK>");
    } else if (name == "--num-threads") {
      o.num_threads = value("--num-threads <NUM>");
    } else if (name == "-j" || name == "--jobs") {
      o.jobs = value("--jobs <N>");
    } else if (name == "--no-mmap") {
      flag(o.no_mmap);
    } else if (name == "--no-names") {
      flag(o.no_names);
    } else if (name == "--raw") {
      flag(o.raw);
    } else if (name == "--tag") {
      flag(o.tag);
    } else if (name == "-c" || name == "--check") {
      flag(o.check);
    } else if (name == "--quiet") {
      flag(o.quiet);
    } else if (name == "--progress") {
      flag(o.progress);
    } else if (name == "-h" || name == "--help") {
      std::fwrite(help_text.data(), 1, help_text.size(), stdout);
      std::exit(0);
    } else if (name == "-V" || name == "--version") {
      std::printf("b3sum %.*s (fastblake %s, %.*s)\n", static_cast<int>(official_version.size()),
                  official_version.data(), FASTBLAKE_VERSION_STRING,
                  static_cast<int>(fastblake::active_backend().size()),
                  fastblake::active_backend().data());
      std::exit(0);
    } else {
      usage_error("unexpected argument '" + std::string(arg) + "' found");
    }
  }
  if (o.files.empty()) o.files.emplace_back("-");
  if (o.keyed && o.derive_key) {
    usage_error("the argument '--keyed' cannot be used with '--derive-key <CONTEXT>'");
  }
  if (o.quiet && !o.check) {
    usage_error("the following required arguments were not provided:\n  --check");
  }
  if (o.check && (o.keyed || o.derive_key || o.length || o.raw || o.no_names || o.seek)) {
    usage_error("the argument '--check' cannot be used with the hashing options");
  }
  return o;
}

// Rust's io::Error display: "<strerror> (os error N)".
std::string os_error(const std::error_code& ec) {
  if (ec.category() != std::generic_category() && ec.category() != std::system_category()) {
    return ec.message();
  }
  std::string m = std::strerror(ec.value());
  m.append(" (os error ").append(std::to_string(ec.value())).append(")");
  return m;
}

std::optional<std::uint64_t> parse_number(const std::string& s) {
  std::uint64_t n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (error != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return n;
}

bool write_all(const void* data, std::size_t n) { return std::fwrite(data, 1, n, stdout) == n; }

struct context {
  options opt;
  b3::hasher mode;
  b3::file_options file;
  std::uint64_t length = 32;
  std::uint64_t seek = 0;
};

// Hashes one input ("-" is standard input) into a reader, or an error message.
// A progress line on stderr, redrawn in place, for inputs of 64 MiB and more.
class progress_line {
 public:
  progress_line(const context& ctx, b3::file_options& file, const std::string& name);
  ~progress_line() {
    if (drawn_) std::fputs("\r\033[K", stderr);
  }

 private:
  bool drawn_ = false;
};

progress_line::progress_line(const context& ctx, b3::file_options& file, const std::string& name) {
  if (!ctx.opt.progress || ::isatty(STDERR_FILENO) == 0) return;
  const auto start = std::chrono::steady_clock::now();
  file.progress_step = 16u << 20;
  file.progress = [this, start, shown = lossy_utf8(name)](std::uint64_t done, std::uint64_t total) {
    if (total < (64u << 20) || done >= total) return true;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\r\033[K%s: %3d%% %.0f MB/s", shown.c_str(),
                 static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total)),
                 seconds > 0 ? static_cast<double>(done) / seconds / 1e6 : 0.0);
    drawn_ = true;
    return true;
  };
}

std::optional<b3::output_reader> hash_input(const context& ctx, const std::string& name,
                                            std::string& error) {
  b3::hasher h = ctx.mode;
  std::error_code ec;
  b3::file_options file = ctx.file;
  const progress_line progress(ctx, file, name);
  if (name == "-") {
    if (ctx.opt.keyed) {
      error = "Cannot open `-` in keyed mode";
      return std::nullopt;
    }
    file.strategy = b3::file_strategy::read;
    b3::update_from_fd(h, STDIN_FILENO, file, ec);
  } else {
    b3::update_from_file(h, name, file, ec);
  }
  if (ec) {
    error = os_error(ec);
    return std::nullopt;
  }
  return h.finalize_xof();
}

bool print_output(const context& ctx, b3::output_reader reader, const std::string& name) {
  reader.seek(ctx.seek);
  std::string line;
  if (ctx.opt.raw) {
    std::vector<std::byte> bytes(64 * 1024);
    for (std::uint64_t left = ctx.length; left > 0;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, bytes.size()));
      reader.fill(std::span(bytes).first(n));
      if (!write_all(bytes.data(), n)) return false;
      left -= n;
    }
    return true;
  }
  bool escaped = false;
  const std::string shown = shown_name(name, escaped);
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(2 * ctx.length, 1u << 20)));
  std::array<std::uint8_t, 64> block;
  for (std::uint64_t left = ctx.length; left > 0;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
    reader.fill(std::span(block).first(n));
    for (std::size_t i = 0; i < n; ++i) {
      hex.push_back(digits[block[i] >> 4]);
      hex.push_back(digits[block[i] & 15]);
    }
    left -= n;
  }
  if (ctx.opt.no_names) {
    line = hex;
  } else if (ctx.opt.tag) {
    line = escaped ? "\\" : "";
    line.append("BLAKE3 (").append(shown).append(") = ").append(hex);
  } else {
    line = escaped ? "\\" : "";
    line.append(hex).append("  ").append(shown);
  }
  line.push_back('\n');
  return write_all(line.data(), line.size());
}

// ---- --check ----

// Checks one line of a check file; prints its verdict. Returns success.
bool check_line(const context& ctx, std::string_view line) {
  const auto parsed = b3sum::parse_check_line(line);
  if (const auto* why = std::get_if<const char*>(&parsed)) {
    std::fprintf(stderr, "b3sum: %s\n", *why);
    return false;
  }
  const auto& entry = std::get<b3sum::check_entry>(parsed);
  std::string error;
  const auto reader = hash_input(ctx, entry.path, error);
  if (!reader) {
    std::printf("%s: FAILED (%s)\n", entry.shown.c_str(), error.c_str());
    return false;
  }
  b3::output_reader r = *reader;
  b3::digest::bytes_type found;
  r.fill(std::span<std::uint8_t>(found));
  if (b3::digest(found) == b3::digest(entry.expected)) {
    if (!ctx.opt.quiet) std::printf("%s: OK\n", entry.shown.c_str());
    return true;
  }
  std::printf("%s: FAILED\n", entry.shown.c_str());
  return false;
}

bool check_file(const context& ctx, const std::string& name, bool& any_failed) {
  FILE* in = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (in == nullptr) {
    std::fprintf(stderr, "b3sum: %s: %s\n", lossy_utf8(name).c_str(),
                 os_error(std::error_code(errno, std::generic_category())).c_str());
    any_failed = true;
    return false;
  }
  std::string line;
  int c;
  while ((c = std::fgetc(in)) != EOF) {
    line.push_back(static_cast<char>(c));
    if (c == '\n') {
      if (!check_line(ctx, line)) any_failed = true;
      line.clear();
    }
  }
  if (!line.empty() && !check_line(ctx, line)) any_failed = true;
  if (in != stdin) std::fclose(in);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  context ctx;
  ctx.opt = parse(argc, argv);
  const options& o = ctx.opt;
  if (o.raw && o.files.size() > 1) fatal("Only one filename can be provided when using --raw");
  std::unique_ptr<fastblake::thread_pool> pool;
  if (o.num_threads) {
    const auto n = parse_number(*o.num_threads);
    if (!n) fatal("Failed to parse num threads.");
    if (*n != 0) pool = std::make_unique<fastblake::thread_pool>(*n);
  }
  if (pool) ctx.file.pool = pool.get();
  ctx.file.strategy = o.no_mmap ? b3::file_strategy::read : b3::file_strategy::automatic;
  std::size_t jobs = 1;
  if (o.jobs) {
    const auto n = parse_number(*o.jobs);
    if (!n || *n == 0) usage_error("invalid value '" + *o.jobs + "' for '--jobs <N>'");
    jobs = static_cast<std::size_t>(*n);
  }
  if (o.keyed) {
    b3::key_type key;
    std::size_t got = 0;
    std::array<std::uint8_t, 33> buffer;
    for (;;) {
      const ssize_t n = ::read(STDIN_FILENO, buffer.data() + got, buffer.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
      if (got == buffer.size()) break;
    }
    if (got < 32) fatal("expected 32 key bytes from stdin, found " + std::to_string(got));
    if (got > 32) fatal("read more than 32 key bytes from stdin");
    std::copy_n(buffer.begin(), 32, key.begin());
    ctx.mode = b3::hasher::keyed(key);
  } else if (o.derive_key) {
    ctx.mode = b3::hasher::derive_key(*o.derive_key);
  }
  bool any_failed = false;
  if (o.check) {
    for (const std::string& name : o.files) check_file(ctx, name, any_failed);
    std::fflush(stdout);
    return any_failed ? 1 : 0;
  }
  if (o.length) {
    const auto n = parse_number(*o.length);
    if (!n) {
      for (const std::string& name : o.files) {
        std::fprintf(stderr, "b3sum: %s: Failed to parse length.\n", lossy_utf8(name).c_str());
      }
      return 1;
    }
    ctx.length = *n;
  }
  if (o.seek) {
    const auto n = parse_number(*o.seek);
    if (!n) fatal("Failed to parse seek offset.");
    ctx.seek = *n;
  }
  const auto report = [&](const std::string& name, const std::optional<b3::output_reader>& r,
                          const std::string& error) {
    if (!r) {
      std::fflush(stdout);
      std::fprintf(stderr, "b3sum: %s: %s\n", lossy_utf8(name).c_str(), error.c_str());
      any_failed = true;
    } else if (!print_output(ctx, *r, name)) {
      std::fprintf(stderr, "b3sum: %s\n", std::strerror(errno));
      std::exit(1);
    }
  };
  if (jobs > 1) {
    // Files in batches hashed at once by hash_files on a pool of `jobs` threads (unless
    // --num-threads chose one); standard input on its own, in order.
    std::unique_ptr<fastblake::thread_pool> job_pool;
    if (!pool) {
      job_pool = std::make_unique<fastblake::thread_pool>(jobs);
      ctx.file.pool = job_pool.get();
    }
    std::size_t i = 0;
    while (i < o.files.size()) {
      if (o.files[i] == "-") {
        std::string error;
        const auto r = hash_input(ctx, o.files[i], error);
        report(o.files[i], r, error);
        ++i;
        continue;
      }
      std::vector<fs::path> batch;
      std::size_t end = i;
      while (end < o.files.size() && o.files[end] != "-" && batch.size() < 512 * jobs) {
        batch.emplace_back(o.files[end]);
        ++end;
      }
      const auto results = b3::hash_files(batch, ctx.mode, ctx.file);
      for (std::size_t k = 0; k < results.size(); ++k) {
        if (results[k].error) {
          report(o.files[i + k], std::nullopt, os_error(results[k].error));
        } else {
          report(o.files[i + k], results[k].output, "");
        }
      }
      i = end;
    }
  } else {
    for (const std::string& name : o.files) {
      std::string error;
      const auto r = hash_input(ctx, name, error);
      report(name, r, error);
    }
  }
  if (std::fflush(stdout) != 0) {
    std::fprintf(stderr, "b3sum: %s\n", std::strerror(errno));
    return 1;
  }
  return any_failed ? 1 : 0;
}
