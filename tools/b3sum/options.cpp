// b3sum's command line (cli.hpp): the official's options, messages and usage lines as its
// clap 4 parser gives them, and fastblake's own options beside them.
#include <fastblake/backend.hpp>
#include <fastblake/config.hpp>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <system_error>
#include <utility>

#include "../common/run.hpp"
#include "cli.hpp"

namespace b3sum::detail {
namespace {

constexpr std::string_view options_text =
    "Arguments:\n"
    "  [FILE]...  Files to hash, or checkfiles to check\n"
    "\n"
    "Options:\n"
    "      --keyed                 Use the keyed mode, reading the 32-byte key from stdin\n"
    "      --derive-key <CONTEXT>  Use the key derivation mode, with the given context string\n"
    "  -l, --length <LEN>          The number of output bytes, before hex encoding [default: 32]\n"
    "      --seek <SEEK>           The starting output byte offset, before hex encoding\n"
    "                              [default: 0]\n"
    "      --num-threads <NUM>     The maximum number of threads to use (more than 4 per CPU,\n"
    "                              or 1024, count as that)\n"
    "      --no-mmap               Disable memory mapping (read the files instead)\n"
    "      --no-names              Omit filenames in the output\n"
    "      --raw                   Write raw output bytes to stdout, rather than hex; one input "
    "only\n"
    "      --tag                   Output BSD-style checksums: BLAKE3 ([FILE]) = [HASH]\n"
    "  -c, --check                 Read BLAKE3 sums from the [FILE]s and check them\n"
    "      --quiet                 Skip printing OK for each checked file (with --check)\n"
    "      --status                Print nothing when checking: the exit status tells\n"
    "      --ignore-missing        When checking, skip listed files that do not exist\n"
    "                              (failing if none was verified)\n"
    "      --strict                Fail on improperly formatted check lines (the default)\n"
    "  -w, --warn                  Warn about improperly formatted check lines (the default;\n"
    "                              after --status, brings the warnings back)\n"
    "  -z, --zero                  End each output line with NUL, not newline, and do not\n"
    "                              escape names\n"
    "  -r, --recursive             Hash the regular files under each directory, in sorted\n"
    "                              order\n"
    "  -L, --dereference           With --recursive, follow symbolic links\n"
    "  -j, --jobs <N>              Hash up to N files at once, printing in argument order\n"
    "      --progress              Show a progress bar on stderr, if it is a terminal\n"
    "      --files0-from <F>       Read the names of the inputs from F, each ended by a NUL;\n"
    "                              with F -, from standard input\n"
    "  -h, --help                  Print help\n"
    "  -V, --version               Print version\n";

// The options as clap names them in messages and usage lines, by their long names.
std::string shown_arg(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> with_values[] = {
      {"--derive-key", " <CONTEXT>"}, {"--length", " <LEN>"}, {"--seek", " <SEEK>"},
      {"--num-threads", " <NUM>"},    {"--jobs", " <N>"},     {"--files0-from", " <F>"}};
  for (const auto& [option, value] : with_values) {
    if (name == option) return std::string(name) + std::string(value);
  }
  return std::string(name);
}

// strsim's Jaro similarity, which clap uses to suggest a long option for a mistyped one.
double jaro(std::string_view a, std::string_view b) {
  if (a.empty() && b.empty()) return 1;
  if (a.empty() || b.empty()) return 0;
  const std::size_t window = std::max<std::size_t>(std::max(a.size(), b.size()) / 2, 1) - 1;
  std::vector<bool> a_matched(a.size()), b_matched(b.size());
  std::size_t matches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t from = i > window ? i - window : 0;
    for (std::size_t j = from; j < std::min(b.size(), i + window + 1); ++j) {
      if (!b_matched[j] && a[i] == b[j]) {
        a_matched[i] = b_matched[j] = true;
        ++matches;
        break;
      }
    }
  }
  if (matches == 0) return 0;
  std::size_t transpositions = 0;
  for (std::size_t i = 0, j = 0; i < a.size(); ++i) {
    if (!a_matched[i]) continue;
    while (!b_matched[j]) ++j;
    if (a[i] != b[j]) ++transpositions;
    ++j;
  }
  const double m = static_cast<double>(matches);
  return (m / static_cast<double>(a.size()) + m / static_cast<double>(b.size()) +
          (m - static_cast<double>(transpositions / 2)) / m) /
         3;
}

static constexpr std::string_view conflicts[][2] = {
    {"--check", "--derive-key"}, {"--check", "--keyed"},     {"--check", "--length"},
    {"--check", "--raw"},        {"--check", "--tag"},       {"--check", "--no-names"},
    {"--check", "--zero"},       {"--check", "--recursive"}, {"--keyed", "--derive-key"}};

// Grouped short flags, split: -cw is -c -w, and -wl32 is -w -l32.
std::vector<std::string> split_grouped_flags(int argc, char** argv) {
  static constexpr std::string_view short_flags = "chVwzrL";
  std::vector<std::string> args;
  bool after_dashes = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") after_dashes = true;
    while (!after_dashes && arg.size() > 2 && arg[0] == '-' && arg[1] != '-' &&
           short_flags.find(arg[1]) != std::string_view::npos) {
      args.push_back(arg.substr(0, 2));
      arg = "-" + arg.substr(2);
    }
    args.push_back(arg);
  }
  return args;
}

// The options read so far and the long names given, in command-line order: what clap's
// messages and usage lines are made of.
struct reading {
  options& o;
  std::vector<std::string>& given;

  bool present(std::string_view name) const {
    return std::find(given.begin(), given.end(), name) != given.end();
  }
  // Usage lines list the arguments given (or some of them), then the files.
  std::string usage_of(const std::vector<std::string>& shown, bool files_required) const {
    std::string usage;
    for (const std::string& name : shown) usage += shown_arg(name) + " ";
    return usage + (files_required || !o.files.empty() ? "<FILE>..." : "[FILE]...");
  }
  // The arguments given that conflict with `a`.
  std::vector<std::string> conflicting(std::string_view a) const {
    std::vector<std::string> with;
    for (const std::string& b : given) {
      for (const auto& pair : conflicts) {
        if ((pair[0] == a && pair[1] == b) || (pair[1] == a && pair[0] == b)) with.push_back(b);
      }
    }
    return with;
  }
  // Conflicts, as clap reports them: the first argument on the command line that conflicts
  // with another present, and every one of those; the usage line leaves them out.
  void refuse_conflicts() const {
    for (const std::string& a : given) {
      const std::vector<std::string> with = conflicting(a);
      if (with.empty()) continue;
      std::string message = "the argument '" + shown_arg(a) + "' cannot be used with";
      if (with.size() == 1) {
        message += " '" + shown_arg(with[0]) + "'";
      } else {
        message += ":";
        for (const std::string& b : with) message += "\n  " + shown_arg(b);
      }
      std::vector<std::string> shown;
      for (const std::string& b : given) {
        if (std::find(with.begin(), with.end(), b) == with.end()) shown.push_back(b);
      }
      clap_error(message,
                 usage_of(shown, present("--keyed") &&
                                     std::find(with.begin(), with.end(), "--keyed") == with.end()));
    }
  }
  // Requirements. The check options need --check, unless --check would conflict with an
  // argument given (clap then drops the requirement: `--quiet --tag f` hashes).
  void require_what_options_need() const {
    if (o.gnu_check_option && !o.check && conflicting("--check").empty()) {
      std::vector<std::string> shown{"--check"};
      shown.insert(shown.end(), given.begin(), given.end());
      clap_error("the following required arguments were not provided:\n  --check",
                 usage_of(shown, false));
    }
    if (o.files0_from && !o.files.empty()) {
      clap_error("the argument '--files0-from <F>' cannot be used with '[FILE]...'",
                 usage_of(given, false));
    }
    // Both would read standard input.
    if (o.keyed && o.files0_from == "-") {
      clap_error("the argument '--keyed' cannot be used with '--files0-from -'",
                 usage_of(given, false));
    }
    if (o.keyed && o.files.empty() && !o.files0_from) {
      clap_error("the following required arguments were not provided:\n  <FILE>...",
                 usage_of(given, true));
    }
    if (o.dereference && !o.recursive) {
      std::vector<std::string> shown{"--recursive"};
      shown.insert(shown.end(), given.begin(), given.end());
      clap_error("the following required arguments were not provided:\n  --recursive",
                 usage_of(shown, false));
    }
  }
};

}  // namespace

std::optional<std::uint64_t> parse_number(std::string_view s, const char** why) {
  const auto fail = [&](const char* reason) -> std::optional<std::uint64_t> {
    if (why != nullptr) *why = reason;
    return std::nullopt;
  };
  if (s.empty()) return fail("cannot parse integer from empty string");
  if (s.starts_with('+') && s.size() > 1) s.remove_prefix(1);
  std::uint64_t n = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  const bool digits_only = s.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits_only || end != s.data() + s.size()) return fail("invalid digit found in string");
  if (error != std::errc()) return fail("number too large to fit in target type");
  return n;
}

options parse(int argc, char** argv) {
  const std::vector<std::string> args = split_grouped_flags(argc, argv);
  static constexpr std::pair<std::string_view, std::string_view> shorts[] = {
      {"-l", "--length"},      {"-j", "--jobs"}, {"-c", "--check"},
      {"-w", "--warn"},        {"-z", "--zero"}, {"-r", "--recursive"},
      {"-L", "--dereference"}, {"-h", "--help"}, {"-V", "--version"}};
  static constexpr std::string_view longs[] = {
      "--keyed",          "--derive-key", "--length",    "--seek",        "--num-threads",
      "--jobs",           "--no-mmap",    "--no-names",  "--raw",         "--tag",
      "--check",          "--quiet",      "--status",    "--warn",        "--strict",
      "--ignore-missing", "--zero",       "--recursive", "--dereference", "--progress",
      "--files0-from",    "--help",       "--version"};
  // The official's options, which clap refuses to see twice.
  static constexpr std::string_view once[] = {
      "--keyed",    "--derive-key", "--length", "--seek",  "--num-threads", "--no-mmap",
      "--no-names", "--raw",        "--tag",    "--check", "--quiet",       "--files0-from"};
  options o;
  std::vector<std::string> given;
  const reading read{o, given};
  const auto present = [&](std::string_view name) { return read.present(name); };
  const auto usage_of = [&](const std::vector<std::string>& shown, bool files_required) {
    return read.usage_of(shown, files_required);
  };
  bool only_files = false;
  const std::size_t count = args.size();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string_view arg = args[i];
    if (only_files || arg == "-" || arg.empty() || arg[0] != '-') {
      if (arg.empty()) {
        clap_error("a value is required for '[FILE]...' but none was supplied", std::nullopt);
      }
      o.files.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    // --name=value, --name value, -x value, -xvalue, -x=value (clap takes one '=' after a short
    // option as the start of its value: -l=5 is -l 5, -l==5 is -l =5).
    std::string name(arg);
    std::optional<std::string> inline_value;
    if (arg.starts_with("--")) {
      if (const auto eq = arg.find('='); eq != std::string_view::npos) {
        name = std::string(arg.substr(0, eq));
        inline_value = std::string(arg.substr(eq + 1));
      }
    } else if (arg.size() > 2) {
      name = std::string(arg.substr(0, 2));
      inline_value = std::string(arg.substr(arg[2] == '=' ? 3 : 2));
    }
    for (const auto& [letter, long_name] : shorts) {
      if (name == letter) name = std::string(long_name);
    }
    const auto unexpected = [&](std::string_view what) {
      std::vector<std::string> shown = given;
      std::string tip =
          "to pass '" + std::string(what) + "' as a value, use '-- " + std::string(what) + "'";
      if (what.starts_with("--")) {
        double best = 0.7;
        for (const std::string_view candidate : longs) {
          const double score = jaro(what.substr(2), candidate.substr(2));
          if (score > best) {
            best = score;
            tip = "a similar argument exists: '" + std::string(candidate) + "'";
            shown = given;
            shown.emplace_back(candidate);
          }
        }
      }
      // (An unknown short flag gets the general usage line, an unknown long one the usage of
      // what was given before it, as clap prints them.)
      const bool general = !what.starts_with("--") || (shown.empty() && o.files.empty());
      clap_error("unexpected argument '" + std::string(what) + "' found",
                 general ? "[OPTIONS] [FILE]..." : usage_of(shown, false), tip);
    };
    if (std::find(std::begin(longs), std::end(longs), name) == std::end(longs)) {
      unexpected(arg.starts_with("--") ? std::string_view(name) : arg.substr(0, 2));
    }
    if (present(name) && std::find(std::begin(once), std::end(once), name) != std::end(once)) {
      clap_error("the argument '" + shown_arg(name) + "' cannot be used multiple times",
                 "[OPTIONS] [FILE]...");
    }
    const auto value = [&]() -> std::string {
      if (inline_value) return *inline_value;
      if (i + 1 >= count) {
        clap_error("a value is required for '" + shown_arg(name) + "' but none was supplied",
                   std::nullopt);
      }
      const std::string_view next = args[i + 1];
      // A value never starts with '-': that is the next option, or an unknown one.
      if (next.size() > 1 && next[0] == '-') {
        const std::string next_name(next.substr(0, next.starts_with("--") ? next.find('=') : 2));
        const bool known =
            std::find(std::begin(longs), std::end(longs), next_name) != std::end(longs) ||
            std::any_of(std::begin(shorts), std::end(shorts),
                        [&](const auto& s) { return s.first == next_name; });
        if (known || next == "--") {
          clap_error("a value is required for '" + shown_arg(name) + "' but none was supplied",
                     std::nullopt);
        }
        unexpected(next);
      }
      return args[++i];
    };
    // A number, refused as clap refuses it when Rust's parser does.
    const auto number = [&]() {
      std::string text = value();
      const char* why = "";
      if (!parse_number(text, &why)) {
        clap_error("invalid value '" + text + "' for '" + shown_arg(name) + "': " + why,
                   std::nullopt);
      }
      return text;
    };
    const auto flag = [&](bool& target) {
      if (inline_value) {
        std::vector<std::string> shown = given;
        shown.push_back(name);
        clap_error("unexpected value '" + *inline_value + "' for '" + name +
                       "' found; no more were expected",
                   usage_of(shown, false));
      }
      target = true;
    };
    bool set = false;
    if (name == "--keyed") {
      flag(o.keyed);
    } else if (name == "--derive-key") {
      o.derive_key = value();
    } else if (name == "--length") {
      o.length = number();
    } else if (name == "--seek") {
      o.seek = number();
    } else if (name == "--num-threads") {
      o.num_threads = number();
    } else if (name == "--jobs") {
      o.jobs = value();
    } else if (name == "--no-mmap") {
      flag(o.no_mmap);
    } else if (name == "--no-names") {
      flag(o.no_names);
    } else if (name == "--raw") {
      flag(o.raw);
    } else if (name == "--tag") {
      flag(o.tag);
    } else if (name == "--check") {
      flag(o.check);
    } else if (name == "--quiet") {
      flag(set);
      o.checking.set_quiet();
      o.gnu_check_option = "--quiet";
    } else if (name == "--status") {
      flag(set);
      o.checking.set_status();
      o.gnu_check_option = "--status";
    } else if (name == "--warn") {
      flag(set);
      o.checking.set_warn();
      o.gnu_check_option = "--warn";
    } else if (name == "--strict") {
      flag(o.checking.strict);
      o.gnu_check_option = "--strict";
    } else if (name == "--ignore-missing") {
      flag(o.checking.ignore_missing);
      o.gnu_check_option = "--ignore-missing";
    } else if (name == "--zero") {
      flag(o.zero);
    } else if (name == "--recursive") {
      flag(o.recursive);
    } else if (name == "--dereference") {
      flag(o.dereference);
    } else if (name == "--progress") {
      flag(o.progress);
    } else if (name == "--files0-from") {
      o.files0_from = value();
    } else if (name == "--help") {
      out.write(std::string(tool->help_head) + "\n" + std::string(options_text) +
                std::string(tool->help_tail));
      out.flush();
      check_output();
      tools::finish(0);
    } else {  // --version
      out.write(std::string(tool->version) + " (fastblake " + FASTBLAKE_VERSION_STRING + ", " +
                std::string(fastblake::active_backend()) + ")\n");
      out.flush();
      check_output();
      tools::finish(0);
    }
    if (!present(name)) given.push_back(name);
  }
  read.refuse_conflicts();
  read.require_what_options_need();
  if (o.files.empty() && !o.files0_from) o.files.emplace_back("-");
  if (o.zero) out.set_line_end('\0');
  return o;
}

}  // namespace b3sum::detail
