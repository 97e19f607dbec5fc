// b2sum's command line (cli.hpp), read as GNU's getopt_long reads it (tools::gnu_options, the
// same on every system), with GNU's messages for what it refuses, and fastblake's own options
// beside GNU's.
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include <fastblake/blake2.hpp>

#include "../common/check.hpp"
#include "../common/gnu_options.hpp"
#include "../common/run.hpp"
#include "../common/system.hpp"
#include "check_line.hpp"
#include "cli.hpp"
#include "messages.hpp"

namespace b2sum::detail {
namespace {

namespace b2 = fastblake::blake2;
using tools::check_options;

std::optional<std::size_t> parse_count(const char* text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno != 0 || v == 0 || v > 1024) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(v);
}

}  // namespace

// As GNU parses and checks it: a usage error or --help and --version end the run here.
command parse_command_line(int argc, char** argv) {
  enum long_only {
    tag_option = 256,
    ignore_missing_option,
    quiet_option,
    status_option,
    strict_option,
    help_option,
    version_option,
    num_threads_option,
    files0_from_option
  };
  // GNU's order (it decides how ambiguous abbreviations are listed), then ours.
  static constexpr std::array<tools::long_option, 17> long_options = {{
      {"length", true, 'l'},
      {"check", false, 'c'},
      {"ignore-missing", false, ignore_missing_option},
      {"quiet", false, quiet_option},
      {"status", false, status_option},
      {"warn", false, 'w'},
      {"strict", false, strict_option},
      {"tag", false, tag_option},
      {"zero", false, 'z'},
      {"binary", false, 'b'},
      {"text", false, 't'},
      {"help", false, help_option},
      {"version", false, version_option},
      {"algorithm", true, 'a'},
      {"jobs", true, 'j'},
      {"num-threads", true, num_threads_option},
      {"files0-from", true, files0_from_option},
  }};
  command c;
  settings& s = c.s;
  check_options& o = c.o;
  bool& check = c.check;
  int binary = -1;  // -1: not given; 0: --text; 1: --binary (or --tag)
  const char* length_text = nullptr;
  std::uint64_t length_bits = 0;
  const char* algorithm_text = nullptr;
  tools::gnu_options options(argc, argv, "a:bcj:l:twz", long_options);
  int opt;
  while ((opt = options.next()) != tools::gnu_options::end_of_options) {
    const char* optarg = options.argument();
    switch (opt) {
      case 'a':
        algorithm_text = optarg;
        break;
      case 'b':
        binary = 1;
        break;
      case 'c':
        check = true;
        break;
      case 'j': {
        const auto n = parse_count(optarg);
        if (!n) usage_error("invalid number of jobs: " + quote(optarg));
        c.jobs = *n;
        break;
      }
      case 'l': {
        // As GNU: a decimal number (blanks and + before it allowed), a multiple of 8 checked
        // here and the maximum once the algorithm is known.
        length_text = optarg;
        const char* digits = optarg;
        while (*digits == ' ' || *digits == '\t' || *digits == '\n' || *digits == '\v' ||
               *digits == '\f' || *digits == '\r') {
          ++digits;
        }
        char* end = nullptr;
        errno = 0;
        const unsigned long long bits = *digits == '-' ? 0 : std::strtoull(digits, &end, 10);
        if (*digits == '-' || end == digits || *end != '\0')
          fatal("invalid length: " + quote(optarg));
        if (errno == ERANGE) {
          // (glibc's and gnulib's words: MinGW-w64's C runtime has none for EOVERFLOW.)
          fatal("invalid length: " + quote(optarg) + ": Value too large for defined data type");
        }
        if (bits % 8 != 0) {
          message("invalid length: " + quote(optarg));
          fatal("length is not a multiple of 8");
        }
        length_bits = bits;
        break;
      }
      case 't':
        binary = 0;
        break;
      case 'z':
        s.delimiter = '\0';
        break;
      case tag_option:
        s.tag = true;
        binary = 1;
        break;
      case ignore_missing_option:
        o.ignore_missing = true;
        break;
      // --status, --warn and --quiet replace one another.
      case 'w':
        o.set_warn();
        break;
      case quiet_option:
        o.set_quiet();
        break;
      case status_option:
        o.set_status();
        break;
      case strict_option:
        o.strict = true;
        break;
      case num_threads_option: {
        const auto n = parse_count(optarg);
        if (!n) usage_error("invalid number of threads: " + quote(optarg));
        c.leaf_threads = *n;
        break;
      }
      case files0_from_option:
        c.files0_from = optarg;
        break;
      case help_option:
        print_help();
        tools::finish(finish_output(EXIT_SUCCESS));
      case version_option:
        print_version();
        tools::finish(finish_output(EXIT_SUCCESS));
      default:
        // As glibc's getopt words it, naming the program by argv[0].
        to_stderr(std::string(program) + ": " + options.refusal() + "\n");
        usage_error("");
    }
  }
  if (algorithm_text != nullptr) {
    const auto named = b2::algorithm_from_name(algorithm_text);
    if (!named) {
      usage_error("invalid algorithm: " + quote(algorithm_text) +
                  " (blake2b, blake2s, blake2bp or blake2sp)");
    }
    s.algo = *named;
  }
  s.bytes = info(s.algo).max_bytes;
  if (length_bits > 8 * info(s.algo).max_bytes) {
    message("invalid length: " + quote(length_text));
    fatal("maximum digest length for " + quote(info(s.algo).tag) + " is " +
          std::to_string(8 * info(s.algo).max_bytes) + " bits");
  }
  if (length_bits != 0) s.bytes = static_cast<std::size_t>(length_bits / 8);
  if (s.tag && binary == 0) usage_error("--tag does not support --text mode");
  if (s.delimiter != '\n' && check) {
    usage_error("the --zero option is not supported when verifying checksums");
  }
  if (s.tag && check) usage_error("the --tag option is meaningless when verifying checksums");
  out.set_line_end(s.delimiter);
  if (binary >= 0 && check) {
    usage_error("the --binary and --text options are meaningless when verifying checksums");
  }
  if (o.ignore_missing && !check) {
    usage_error("the --ignore-missing option is meaningful only when verifying checksums");
  }
  if (o.status && !check) {
    usage_error("the --status option is meaningful only when verifying checksums");
  }
  if (o.warn && !check)
    usage_error("the --warn option is meaningful only when verifying checksums");
  if (o.quiet && !check) {
    usage_error("the --quiet option is meaningful only when verifying checksums");
  }
  if (o.strict && !check) {
    usage_error("the --strict option is meaningful only when verifying checksums");
  }
  // Binary by default where there is a text mode, as GNU's, but for a console's input; every
  // input is read as it is either way (so sums are the same everywhere, as with the b2sum of
  // MSYS2 and Git for Windows, whose files are binary).
  const bool by_default = binary < 0 && tools::files_have_text_mode;
  s.binary = binary == 1 || by_default;
  s.binary_stdin = binary == 1 || (by_default && !tools::is_terminal(tools::standard_input));
  c.files = options.operands();
  // As GNU du and wc refuse them.
  if (c.files0_from != nullptr && !c.files.empty()) {
    message("extra operand " + quote(c.files[0]));
    to_stderr("file operands cannot be combined with --files0-from\n");
    usage_error("");
  }
  if (c.files.empty() && c.files0_from == nullptr) c.files.emplace_back("-");
  return c;
}

}  // namespace b2sum::detail
