// What the bao tool's command line (options.cpp, read as the Rust tool's docopt parser reads
// it) and its commands (commands.cpp) share: the arguments, and how an error ends the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bao_tool::detail {

struct arguments {
  std::string command;
  std::vector<std::string> positional;
  std::optional<std::string> outboard, start, count, group;
  bool progress = false;
};

/// The command line, as docopt reads it; --help and --version are answered (and end the run)
/// here, as is a command line docopt refuses.
arguments parse(int argc, char** argv);

/// A number of the command line, as docopt reads one: blank is 0; else what Rust's u64 parse
/// takes, or docopt's message naming the argument (`key`) and the end of the run.
std::uint64_t number(const std::string& text, std::string_view key);

/// "Error: MESSAGE" on standard error, and the end of the run with status 1.
[[noreturn]] void fatal(const std::string& message);
/// "Invalid arguments." and the usage, and the end of the run with status 1.
[[noreturn]] void usage_error();

}  // namespace bao_tool::detail
