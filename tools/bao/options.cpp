// The bao tool's command line, read as the Rust tool's parser (docopt) reads it: its usage,
// flags and refusals, in its words.

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include <fastblake/config.hpp>

#include "../common/io.hpp"
#include "../common/run.hpp"
#include "cli.hpp"

namespace bao_tool::detail {
namespace {

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

void to_stderr(std::string_view text) { tools::write_all(tools::standard_error, text); }

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

}  // namespace

[[noreturn]] void fatal(const std::string& message) {
  to_stderr("Error: " + message + "\n");
  tools::finish(1);
}

[[noreturn]] void usage_error() {
  to_stderr("Invalid arguments.\n\n" + std::string(usage_text));
  tools::finish(1);
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
    tools::write_all(tools::standard_output, std::string(usage_text) + std::string(help_body));
    tools::finish(0);
  }
  if (version) {
    tools::write_all(tools::standard_output, std::string(compatible_version) + " (fastblake " +
                                                 FASTBLAKE_VERSION_STRING + ")\n");
    tools::finish(0);
  }
  return a;
}

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

}  // namespace bao_tool::detail
