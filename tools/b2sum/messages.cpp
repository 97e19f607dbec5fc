// b2sum's messages (messages.hpp).
#include "messages.hpp"

#include <cstdlib>
#include <cstring>

#include <fastblake/backend.hpp>
#include <fastblake/config.hpp>

#include "../common/escape.hpp"
#include "../common/run.hpp"
#include "../common/system.hpp"

namespace b2sum::detail {

std::string_view program = "b2sum";
bool utf8_locale = false;
tools::output out(tools::standard_output);

namespace {

// The C escape of a byte that cannot be printed: \n, \t, ... or three octal digits.
std::string c_escape(unsigned char c) {
  switch (c) {
    case '\a':
      return "\\a";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\v':
      return "\\v";
    default: {
      char octal[5];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      return octal;
    }
  }
}

}  // namespace

// gnulib's quote() (locale quoting): 'x' in C escapes or, in a UTF-8 locale, ‘x’.
std::string quote(std::string_view s) {
  std::string q = utf8_locale ? "\xe2\x80\x98" : "'";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 1;
    if (!tools::printable_character(s, i, n)) {
      for (std::size_t k = 0; k < n; ++k) q.append(c_escape(static_cast<unsigned char>(s[i + k])));
    } else if (c == '\\') {
      q.append("\\\\");
    } else if (c == '\'' && !utf8_locale) {
      q.append("\\'");
    } else {
      // As gnulib: the closing quote inside the text gets a backslash.
      if (utf8_locale && s.substr(i, n) == "\xe2\x80\x99") q.push_back('\\');
      q.append(s.substr(i, n));
    }
    i += n;
  }
  q.append(utf8_locale ? "\xe2\x80\x99" : "'");
  return q;
}

// gnulib's quotef() (shell-escape quoting, colons quoted too), as GNU prints file names in
// messages: names a shell would read as they are stay bare; others go in single quotes (double
// quotes when a single quote is their only special character), with bytes that cannot be
// printed as $'\n'-style escapes between the quoted runs.
std::string quotef(std::string_view s) {
  constexpr std::string_view bare =
      "%+,-./0123456789@ABCDEFGHIJKLMNOPQRSTUVWXYZ]_abcdefghijklmnopqrstuvwxyz";
  const auto shown_as_is = [&](std::size_t i, std::size_t& n) {
    return tools::printable_character(s, i, n);
  };
  bool needs_quotes = s.empty();
  bool only_single_quotes = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    std::size_t n = 1;
    if (bare.find(c) != std::string_view::npos) continue;
    if ((c == '#' || c == '~') && i > 0) continue;
    if ((c == '{' || c == '}') && s.size() > 1) continue;
    if (static_cast<unsigned char>(c) >= 0x80 && shown_as_is(i, n)) {
      i += n - 1;
      continue;
    }
    i += n - 1;
    needs_quotes = true;
    if (c != '\'') only_single_quotes = false;
  }
  if (!needs_quotes) return std::string(s);
  if (only_single_quotes && !s.empty()) {
    std::string q = "\"";
    q.append(s);
    q.append("\"");
    return q;
  }
  std::string q = "'";
  bool quoted_run_open = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::size_t n = 1;
    if (!shown_as_is(i, n)) {
      q.append(quoted_run_open ? "'$'" : "$'");
      while (i < s.size() && !shown_as_is(i, n)) {
        for (const std::size_t end = i + n; i < end; ++i)
          q.append(c_escape(static_cast<unsigned char>(s[i])));
      }
      q.append("'");
      quoted_run_open = false;
      --i;
      continue;
    }
    if (!quoted_run_open) {
      q.append("'");
      quoted_run_open = true;
    }
    if (s[i] == '\'') {
      q.append("'\\''");
    } else {
      q.append(s.substr(i, n));
      i += n - 1;
    }
  }
  if (quoted_run_open) q.append("'");
  return q;
}

void to_stderr(const std::string& text) { tools::write_all(tools::standard_error, text); }

void message(const std::string& text) {
  out.flush();
  to_stderr(std::string(program) + ": " + text + "\n");
}

void usage_error(const std::string& text) {
  if (!text.empty()) message(text);
  to_stderr("Try '" + std::string(program) + " --help' for more information.\n");
  tools::finish(EXIT_FAILURE);
}

void fatal(const std::string& text) {
  message(text);
  tools::finish(EXIT_FAILURE);
}

// The manual page --help points to: the installed name, which FASTBLAKE_TOOLS_PREFIX may change
// (cmake/Manuals.cmake defines it).
#ifndef FASTBLAKE_B2SUM_MANUAL
#define FASTBLAKE_B2SUM_MANUAL "b2sum"
#endif

// GNU's usage and option lines, which scripts may read; the last lines are fastblake's own.
void print_help() {
  out.write("Usage: " + std::string(program) +
            " [OPTION]... [FILE]...\n"
            "Print or check BLAKE2b (512-bit) checksums.\n"
            "\n"
            "With no FILE, or when FILE is -, read standard input.\n"
            "\n"
            "Mandatory arguments to long options are mandatory for short options too.\n"
            "  -a, --algorithm=NAME  blake2b (the default), blake2s, blake2bp or blake2sp\n"
            "  -b, --binary          read in binary mode" +
            (tools::files_have_text_mode ? " (default unless reading tty stdin)\n" : "\n") +
            "  -c, --check           read checksums from the FILEs and check them\n"
            "  -j, --jobs=N          hash up to N files at once, printing in argument order\n"
            "  -l, --length=BITS     digest length in bits; must not exceed the max for\n"
            "                          the blake2 algorithm and must be a multiple of 8\n"
            "      --files0-from=F   read the names of the FILEs from F, each ended by a NUL;\n"
            "                          with F -, from standard input\n"
            "      --num-threads=N   threads for the leaves of blake2bp and blake2sp\n"
            "      --tag             create a BSD-style checksum\n"
            "  -t, --text            read in text mode" +
            (tools::files_have_text_mode ? " (default if reading tty stdin)\n" : " (default)\n") +
            "  -z, --zero            end each output line with NUL, not newline,\n"
            "                          and disable file name escaping\n"
            "\n"
            "The following five options are useful only when verifying checksums:\n"
            "      --ignore-missing  don't fail or report status for missing files\n"
            "      --quiet           don't print OK for each successfully verified file\n"
            "      --status          don't output anything, status code shows success\n"
            "      --strict          exit non-zero for improperly formatted checksum lines\n"
            "  -w, --warn            warn about improperly formatted checksum lines\n"
            "\n"
            "      --help        display this help and exit\n"
            "      --version     output version information and exit\n"
            "\n"
            "The sums are computed as described in RFC 7693.\n"
            "When checking, the input should be a former output of this program.\n"
            "The default mode is to print a line with: checksum, a space,\n"
            "a character indicating input mode ('*' for binary, ' ' for text\n"
            "or where binary is insignificant), and name for each FILE.\n"
            "\n"
            "Note: There is no difference between binary mode and text mode on GNU systems.\n"
            "\n"
            "Full documentation: man " FASTBLAKE_B2SUM_MANUAL
            ", or tools/b2sum/README.md in fastblake's sources\n"
            "Report bugs to the fastblake developers: <fastblake@fastblake.invalid>\n");
}

void print_version() {
  const std::string backend(fastblake::active_backend());
  const std::string kernels(fastblake::active_blake2_kernels());
  out.write(std::string("b2sum (fastblake) ") + FASTBLAKE_VERSION_STRING +
            "\nCompatible with GNU coreutils b2sum 9.1. Backend: " + backend +
            (kernels == backend ? "" : " (BLAKE2 on the " + kernels + " kernels)") + ".\n");
}
}  // namespace b2sum::detail
