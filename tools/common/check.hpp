// What GNU's check options mean, shared by b2sum and b3sum.
#pragma once

#include <cstddef>

namespace tools {

struct check_options {
  bool ignore_missing = false;  // a listed file that does not exist is no failure, no verdict
  bool quiet = false;           // no OK lines
  bool status = false;          // no verdicts and no warnings: the exit status tells
  bool strict = false;          // improperly formatted lines fail the check
  bool warn = false;            // a warning for each improperly formatted line

  // As GNU, --status, --warn and --quiet replace one another: the last one given holds.
  void set_quiet() { quiet = true, status = false, warn = false; }
  void set_status() { status = true, warn = false, quiet = false; }
  void set_warn() { warn = true, status = false, quiet = false; }
};

/// The outcome of checking one checksum file.
struct check_counts {
  std::size_t malformed = 0;   // improperly formatted lines
  std::size_t unreadable = 0;  // listed files that could not be opened or read
  std::size_t mismatched = 0;  // computed checksums that did not match
  std::size_t matched = 0;     // files verified
  std::size_t well_formed = 0;

  /// GNU's verdict on the whole file.
  bool passed(const check_options& o) const {
    return mismatched == 0 && unreadable == 0 && (!o.strict || malformed == 0) &&
           (!o.ignore_missing || matched > 0);
  }
};

}  // namespace tools
