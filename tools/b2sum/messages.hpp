// b2sum's messages, as GNU's b2sum writes them (messages.cpp): file names and arguments quoted
// as gnulib quotes them in the locale, errors prefixed by the program's name, --help and
// --version; and the program state they read.
#pragma once

#include <string>
#include <string_view>

#include "../common/io.hpp"

namespace b2sum::detail {

/// The program's name in messages: argv[0], as GNU's (tools::program_name).
extern std::string_view program;
/// Whether the locale's characters are UTF-8 (quotes are then ‘x’).
extern bool utf8_locale;
/// Standard output, written whole lines at a time.
extern tools::output out;

/// gnulib's quote() (locale quoting): 'x' in C escapes or, in a UTF-8 locale, ‘x’.
std::string quote(std::string_view s);
/// gnulib's quotef() (shell-escape quoting), as GNU prints file names in messages.
std::string quotef(std::string_view s);

void to_stderr(const std::string& text);
/// "<program>: <text>" on standard error, after what standard output holds.
void message(const std::string& text);
/// A usage error: the message, GNU's "Try ... --help" line, exit status 1.
[[noreturn]] void usage_error(const std::string& text);
/// The message, then exit status 1.
[[noreturn]] void fatal(const std::string& text);

void print_help();
void print_version();

}  // namespace b2sum::detail
