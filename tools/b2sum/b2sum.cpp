// b2sum: a drop-in for GNU coreutils' b2sum (Debian 12's, 9.1), on fastblake.
//
// Output, messages and exit statuses follow GNU byte for byte (checked against Debian's b2sum by
// tests/cli/b2sum_test.py), options are parsed by the C library's getopt_long as GNU's are, and
// messages name the program by argv[0] as GNU's do. Beyond GNU: -a/--algorithm (as the BLAKE2
// reference's b2sum), -j/--jobs and --num-threads.
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/config.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "../common/batches.hpp"
#include "../common/check.hpp"
#include "../common/escape.hpp"
#include "../common/file_list.hpp"
#include "../common/io.hpp"
#include "../common/run.hpp"
#include "../common/threads.hpp"
#include "check_line.hpp"
#include "messages.hpp"
#include "run.hpp"

namespace {

using b2sum::algorithm;
using b2sum::info;
using b2sum::parsed_line;
using b2sum::tagged_algorithm;

using namespace b2sum::detail;

// Whether standard input was read: GNU then closes it at exit and reports a failure.
bool stdin_used = false;

// ---- hashing ----

namespace b2 = fastblake::blake2;

struct settings {
  algorithm algo = algorithm::blake2b;
  std::size_t bytes = 64;
  bool tag = false;
  bool binary = false;
  char delimiter = '\n';
  // Every input is read with read(2) to its end, as GNU reads it (a file that grows is hashed
  // to its new end), the next buffer read ahead on the pool while one is hashed; BLAKE2bp and
  // BLAKE2sp also split their leaves there.
  fastblake::file_options file = streaming();

  static fastblake::file_options streaming() {
    fastblake::file_options o;
    o.strategy = fastblake::file_strategy::stream;
    return o;
  }
};

struct result {
  std::string hex;
  int error = 0;
};

// The errno GNU would report; the file API's errors are errno values but for its own
// (a file that shrank), which reading to the end cannot meet.
int errno_of(const std::error_code& ec) {
  return ec.category() == std::generic_category() ? ec.value() : EIO;
}

// Named files are opened here, above the standard descriptors, and read as streams: no path
// object per file, which costs 5% of hashing many small files.
result hash_named(const std::string& name, const settings& s) {
  const bool from_stdin = name == "-";
  if (from_stdin) stdin_used = true;
  const int fd = from_stdin ? STDIN_FILENO : tools::open_above_standard(name.c_str(), O_RDONLY);
  if (fd < 0) return {"", errno};
  b2::hasher h(s.algo, s.bytes);
  std::error_code ec;
  b2::update_from_fd(h, fd, s.file, ec);
  if (!from_stdin) ::close(fd);
  return ec ? result{"", errno_of(ec)} : result{h.finalize().to_hex(), 0};
}

// ---- output ----

// GNU escapes a name that holds a backslash, newline or carriage return (the line then starts
// with a backslash); never with --zero.
bool needs_escape(std::string_view name, char delimiter) {
  return delimiter == '\n' && tools::needs_escape(name);
}

void print_sum(const settings& s, const std::string& name, const std::string& hex) {
  const bool escape = needs_escape(name, s.delimiter);
  const std::string shown = escape ? tools::escape_name(name) : name;
  std::string line;
  if (escape) line.push_back('\\');
  if (s.tag) {
    line.append(info(s.algo).tag);
    if (s.bytes != info(s.algo).max_bytes) line.append("-").append(std::to_string(8 * s.bytes));
    line.append(" (").append(shown).append(") = ").append(hex);
  } else {
    line.append(hex).append(" ").append(s.binary ? "*" : " ").append(shown);
  }
  line.push_back(s.delimiter);
  out.write(line);
}

// ---- checking ----

// As GNU, the first plain line decides the form every later line, of every checksum file,
// must take.
b2sum::plain_form form = b2sum::plain_form::undecided;

using tools::check_options;

std::string lowercase(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Verdicts escape a name only for a newline (GNU 9.1 prints backslashes and carriage returns as
// they are there), but then all three.
void print_verdict(const std::string& name, const char* verdict) {
  const bool escape = name.find('\n') != std::string::npos;
  std::string line;
  if (escape) line.push_back('\\');
  line.append(escape ? tools::escape_name(name) : name)
      .append(": ")
      .append(verdict)
      .push_back('\n');
  out.write(line);
}

std::string plural(std::size_t n, const char* one, const char* many) {
  std::string s = std::to_string(n);
  s.append(" ").append(n == 1 ? one : many);
  return s;
}

// Checks one checksum file; returns whether everything in it passed.
// Whether the listed file's digest is the line's: as its own tag names it (a BLAKE2bp line is
// BLAKE2bp), or else as GNU reads the line (GNU takes "BLAKE2bp" for BLAKE2b). 0 or the errno of
// a failure to open or read the file.
int verify(const std::string& name, const parsed_line& own, const parsed_line* as_gnu,
           const settings& s, bool& match) {
  settings file_settings = s;
  file_settings.algo = own.algo;
  file_settings.bytes = own.bytes;
  const result r = hash_named(name, file_settings);
  if (r.error != 0) return r.error;
  match = lowercase(own.hex) == r.hex;
  if (!match && as_gnu != nullptr) {
    file_settings.algo = as_gnu->algo;
    file_settings.bytes = as_gnu->bytes;
    const result gnu = hash_named(name, file_settings);
    if (gnu.error != 0) return gnu.error;
    match = lowercase(as_gnu->hex) == gnu.hex;
  }
  return 0;
}

// Checks one checksum file; returns whether everything in it passed.
bool check_file(const std::string& list, const settings& s, const check_options& o) {
  const bool from_stdin = list == "-";
  const std::string shown = quotef(from_stdin ? "standard input" : list);
  const int fd = from_stdin ? STDIN_FILENO : tools::open_above_standard(list.c_str(), O_RDONLY);
  if (from_stdin) stdin_used = true;
  if (fd < 0) {
    message(shown + ": " + std::strerror(errno));
    return false;
  }
  tools::line_reader in(fd);
  std::size_t line_number = 0;
  tools::check_counts counts;
  std::string text;
  while (in.next(text)) {
    ++line_number;
    std::string_view line(text);
    if (in.last_too_long()) line = "too long";  // improperly formatted, as GNU would find it
    if (line[0] == '#') continue;
    if (line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::optional<parsed_line> parsed = parse_line(line, s.algo, form);
    // A tag of another of our algorithms names the algorithm (lines of -a blake2bp --tag).
    std::optional<parsed_line> own;
    if (const auto named = tagged_algorithm(line); named && *named != s.algo) {
      own = parse_line(line, *named, form);
    }
    if (!own) own.swap(parsed);
    if (own && from_stdin && own->name == "-") own.reset();
    if (parsed && from_stdin && parsed->name == "-") parsed.reset();
    if (!own) {
      ++counts.malformed;
      if (o.warn) {
        message(shown + ": " + std::to_string(line_number) + ": improperly formatted " +
                std::string(info(s.algo).tag) + " checksum line");
      }
      continue;
    }
    ++counts.well_formed;
    bool match = false;
    const parsed_line* as_gnu = parsed && parsed->name == own->name ? &*parsed : nullptr;
    if (const int error = verify(own->name, *own, as_gnu, s, match); error != 0) {
      if (o.ignore_missing && error == ENOENT) continue;
      message(quotef(own->name) + ": " + std::strerror(error));
      ++counts.unreadable;
      if (!o.status) print_verdict(own->name, "FAILED open or read");
      continue;
    }
    if (!match) {
      ++counts.mismatched;
      if (!o.status) print_verdict(own->name, "FAILED");
    } else {
      ++counts.matched;
      if (!o.status && !o.quiet) print_verdict(own->name, "OK");
    }
  }
  const bool read_error = in.error() != 0;
  if (!from_stdin) ::close(fd);
  if (read_error) {
    message(shown + ": read error");
    return false;
  }
  // Where GNU's getline runs out of memory and ends the file, with no word of its own: a note
  // with --warn, as for a line improperly formatted, and where the status would otherwise go
  // unexplained (lines that passed before it). Otherwise GNU's own message says what failed.
  if (in.endless() && (o.warn || counts.well_formed > 0)) {
    message(shown + ": " + std::to_string(line_number + 1) + ": line too long");
  }
  if (counts.well_formed == 0) {
    message(shown + ": no properly formatted checksum lines found");
    return false;
  }
  if (!o.status) {
    if (counts.malformed > 0) {
      message("WARNING: " + plural(counts.malformed, "line is improperly formatted",
                                   "lines are improperly formatted"));
    }
    if (counts.unreadable > 0) {
      message("WARNING: " + plural(counts.unreadable, "listed file could not be read",
                                   "listed files could not be read"));
    }
    if (counts.mismatched > 0) {
      message("WARNING: " + plural(counts.mismatched, "computed checksum did NOT match",
                                   "computed checksums did NOT match"));
    }
  }
  if (o.ignore_missing && counts.matched == 0) message(shown + ": no file was verified");
  return counts.passed(o) && !in.endless();
}

// Standard output at exit, as GNU's close_stdout sees it: a failed write is "write error" (with
// "Bad file descriptor" when the descriptor is closed); a closed descriptor with nothing
// written is no error. A closed standard input, once read, is reported too.
int finish_output(int status) {
  out.flush();
  if (out.error() != 0) {
    to_stderr(std::string(program) + ": write error" +
              (out.error() == EBADF ? ": Bad file descriptor" : "") + "\n");
    return EXIT_FAILURE;
  }
  if (stdin_used && ::fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF) {
    to_stderr(std::string(program) + ": standard input: " + std::strerror(EBADF) + "\n");
    return EXIT_FAILURE;
  }
  return status;
}

std::optional<std::size_t> parse_count(const char* text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno != 0 || v == 0 || v > 1024) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(v);
}

// What the command line asks for.
struct command {
  settings s;
  check_options o;
  bool check = false;
  std::size_t jobs = 1;
  std::size_t leaf_threads = 0;
  std::vector<std::string> files;
  const char* files0_from = nullptr;  // the list of FILEs, in place of the operands
};

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
  static const struct option long_options[] = {
      {"length", required_argument, nullptr, 'l'},
      {"check", no_argument, nullptr, 'c'},
      {"ignore-missing", no_argument, nullptr, ignore_missing_option},
      {"quiet", no_argument, nullptr, quiet_option},
      {"status", no_argument, nullptr, status_option},
      {"warn", no_argument, nullptr, 'w'},
      {"strict", no_argument, nullptr, strict_option},
      {"tag", no_argument, nullptr, tag_option},
      {"zero", no_argument, nullptr, 'z'},
      {"binary", no_argument, nullptr, 'b'},
      {"text", no_argument, nullptr, 't'},
      {"help", no_argument, nullptr, help_option},
      {"version", no_argument, nullptr, version_option},
      {"algorithm", required_argument, nullptr, 'a'},
      {"jobs", required_argument, nullptr, 'j'},
      {"num-threads", required_argument, nullptr, num_threads_option},
      {"files0-from", required_argument, nullptr, files0_from_option},
      {nullptr, 0, nullptr, 0},
  };
  command c;
  settings& s = c.s;
  check_options& o = c.o;
  bool& check = c.check;
  int binary = -1;  // -1: not given; 0: --text; 1: --binary (or --tag)
  const char* length_text = nullptr;
  std::uint64_t length_bits = 0;
  const char* algorithm_text = nullptr;
  int opt;
  while ((opt = getopt_long(argc, argv, "a:bcj:l:twz", long_options, nullptr)) != -1) {
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
          fatal("invalid length: " + quote(optarg) + ": " + std::strerror(EOVERFLOW));
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
  s.binary = binary == 1;
  c.files.assign(argv + optind, argv + argc);
  // As GNU du and wc refuse them.
  if (c.files0_from != nullptr && !c.files.empty()) {
    message("extra operand " + quote(c.files[0]));
    to_stderr("file operands cannot be combined with --files0-from\n");
    usage_error("");
  }
  if (c.files.empty() && c.files0_from == nullptr) c.files.emplace_back("-");
  return c;
}

int run_unguarded(int argc, char** argv) {
  if (argc > 0 && argv[0] != nullptr && argv[0][0] != '\0') program = argv[0];
  std::setlocale(LC_ALL, "");
  utf8_locale = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
  command c = parse_command_line(argc, argv);
  settings& s = c.s;
  // The FILEs: the operands, or --files0-from's list, read a block at a time.
  std::vector<std::string> files = std::move(c.files);
  std::vector<std::string> problems;  // beside files: a bad entry's message, in its place
  std::optional<tools::file_list> list;
  if (c.files0_from != nullptr) {
    list.emplace(c.files0_from);
    if (list->open_error() != 0) {
      fatal("cannot open " + quote(c.files0_from) +
            " for reading: " + std::strerror(list->open_error()));
    }
    // With GNU's program, standard input then holds the names, not a file.
    if (std::strcmp(c.files0_from, "-") == 0) stdin_used = true;
  }
  const auto next_block = [&] {
    files.clear();
    problems.clear();
    std::vector<tools::file_list::entry> block;
    if (!list || !list->next(block, std::size_t{1} << 16)) return false;
    for (tools::file_list::entry& e : block) {
      files.push_back(std::move(e.name));
      problems.push_back(std::move(e.problem));
    }
    return true;
  };
  if (list) next_block();
  problems.resize(files.size());

  // A thread to read ahead while one hashes; more when -j or --num-threads asks, up to what
  // pays (tools::usable_threads).
  const std::size_t jobs = tools::usable_threads(c.jobs);
  const std::size_t leaf_threads = tools::usable_threads(c.leaf_threads);
  // (As many as the system gives: on the calling thread alone where it gives none.)
  const std::unique_ptr<fastblake::thread_pool> pool =
      tools::pool_of_at_most(std::max<std::size_t>({2, jobs, leaf_threads}));
  s.file.pool = pool.get();

  bool ok = true;
  const auto report = [&](const std::string& name, const result& r) {
    if (r.error != 0) {
      message(quotef(name) + ": " + std::strerror(r.error));
      ok = false;
    } else {
      print_sum(s, name, r.hex);
    }
  };
  // A bad entry of the list: GNU's "LIST:N: why", in its place.
  const auto bad_entry = [&](std::size_t i) {
    if (problems[i].empty()) return false;
    const std::size_t colon = files[i].rfind(':');
    message(quotef(files[i].substr(0, colon)) + files[i].substr(colon) + ": " + problems[i]);
    ok = false;
    return true;
  };
  const auto hash_alone = [&](std::size_t i) {
    if (!bad_entry(i)) report(files[i], hash_named(files[i], s));
  };
  const b2::hasher prototype(s.algo, s.bytes);
  do {
    if (c.check) {
      for (std::size_t i = 0; i < files.size(); ++i) {
        if (!bad_entry(i)) ok = check_file(files[i], s, c.o) && ok;
      }
    } else if (jobs > 1) {
      // Batches of files hashed at once by hash_files, printed in order; standard input on its
      // own.
      tools::in_ordered_batches(
          files.size(), 64 * jobs,
          [&](std::size_t i) { return files[i] == "-" || !problems[i].empty(); }, hash_alone,
          [&](std::size_t first, std::size_t last) {
            const std::vector<std::filesystem::path> batch(files.begin() + first,
                                                           files.begin() + last);
            const auto results = b2::hash_files(batch, prototype, s.file);
            for (std::size_t k = 0; k < results.size(); ++k) {
              report(files[first + k], results[k].error ? result{"", errno_of(results[k].error)}
                                                        : result{results[k].digest.to_hex(), 0});
            }
          });
    } else {
      for (std::size_t i = 0; i < files.size(); ++i) hash_alone(i);
    }
  } while (next_block());
  if (list && list->read_error() != 0) {
    message(quotef(c.files0_from) + ": read error: " + std::strerror(list->read_error()));
    ok = false;
  }
  return finish_output(ok ? EXIT_SUCCESS : EXIT_FAILURE);
}

}  // namespace

int b2sum::run(int argc, char** argv) {
  program = "b2sum";
  utf8_locale = false;
  stdin_used = false;
  form = b2sum::plain_form::undecided;
  out.reset();
  // getopt_long starts over, rereading its GNU extensions, from 0.
  optind = 0;
  try {
    return run_unguarded(argc, argv);
  } catch (const tools::exit_status& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    // GNU's xalloc_die(), written without allocating.
    out.flush();
    tools::write_all(STDERR_FILENO, program);
    tools::write_all(STDERR_FILENO, ": memory exhausted\n");
    return 1;
  }
}
