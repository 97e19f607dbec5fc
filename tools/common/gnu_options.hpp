// GNU getopt_long's reading of a command line, the same on every system: options anywhere
// among the operands (until the first operand where POSIXLY_CORRECT is set), "--" ending them,
// short options clustered, long ones by any unambiguous prefix, and glibc's words for what it
// refuses. MinGW-w64's and macOS's C libraries have a getopt_long of their own, with other rules
// and words (MinGW's names the program by its whole path and ends its lines with CRLF).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tools {

struct long_option {
  const char* name;
  bool takes_argument;
  int id;
};

class gnu_options {
 public:
  /// short_options: getopt's string ("a:bc": -a takes an argument). long_options in the order
  /// an ambiguous prefix lists them.
  gnu_options(int argc, char** argv, std::string_view short_options,
              std::span<const long_option> long_options);

  /// The next option: a short option's character or a long option's id, with its argument in
  /// argument(); end_of_options once there are none; refused after a refusal, which refusal()
  /// words as glibc does, less the program's name.
  int next();
  static constexpr int end_of_options = -1;
  static constexpr int refused = '?';

  const char* argument() const { return argument_; }
  const std::string& refusal() const { return refusal_; }
  /// The operands, in their order: complete once next() has returned end_of_options.
  const std::vector<std::string>& operands() const { return operands_; }

 private:
  int short_option();
  int long_option_named(std::string_view text);
  int refuse(std::string words);

  int argc_;
  char** argv_;
  std::string_view short_options_;
  std::span<const long_option> long_options_;
  bool in_order_;  // POSIXLY_CORRECT: options end at the first operand
  int index_ = 1;
  std::size_t in_cluster_ = 0;  // where the next short option of argv_[index_] is, or 0
  bool options_ended_ = false;
  const char* argument_ = nullptr;
  std::string refusal_;
  std::vector<std::string> operands_;
};

}  // namespace tools
