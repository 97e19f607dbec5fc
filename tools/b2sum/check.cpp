// b2sum's checking, -c (check.hpp): each line of a checksum file parsed as GNU parses it
// (check_line.hpp), its file hashed, and its verdict and the file's warnings printed as GNU
// prints them.
#include "check.hpp"

#include <cerrno>
#include <cstring>
#include <optional>
#include <string_view>

#include "../common/escape.hpp"
#include "../common/io.hpp"
#include "messages.hpp"

namespace b2sum::detail {

plain_form plain_line_form = plain_form::undecided;

namespace {

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

}  // namespace

// Checks one checksum file; returns whether everything in it passed.
bool check_file(const std::string& list, const settings& s, const check_options& o) {
  const bool from_stdin = list == "-";
  const std::string shown = quotef(from_stdin ? "standard input" : list);
  const int fd = from_stdin ? tools::standard_input : tools::open_for_reading(list);
  if (from_stdin) stdin_used = true;
  if (fd < 0) {
    // A directory opens on POSIX and fails to read ("read error", as GNU says); where it cannot
    // be opened (Windows), it is worded the same.
    message(shown + ": " + (errno == EISDIR ? "read error" : tools::os_error_text(errno)));
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
    std::optional<parsed_line> parsed = parse_line(line, s.algo, plain_line_form);
    // A tag of another of our algorithms names the algorithm (lines of -a blake2bp --tag).
    std::optional<parsed_line> own;
    if (const auto named = tagged_algorithm(line); named && *named != s.algo) {
      own = parse_line(line, *named, plain_line_form);
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
      message(quotef(own->name) + ": " + tools::os_error_text(error));
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
  if (!from_stdin) tools::close_descriptor(fd);
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

}  // namespace b2sum::detail
