// b3sum's names and check-file lines, apart from the tool so that the fuzzer
// (tests/fuzz/b3sum_check_line.cpp) can reach them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace b3sum {

/// Rust's String::from_utf8_lossy: each maximal invalid subsequence becomes U+FFFD.
std::string lossy_utf8(std::string_view s);

/// The name as a checksum line gives it: lossy UTF-8, and on Windows with '/' for '\\', as the
/// official b3sum prints it there (so that its check files hold no backslash but escapes).
std::string portable_name(std::string_view name);

/// The name as printed: portable_name with backslashes, newlines and carriage returns escaped;
/// `escaped` says whether the line needs the leading backslash.
std::string shown_name(std::string_view name, bool& escaped);

/// One well-formed line of a check file.
struct check_entry {
  std::vector<std::uint8_t> expected;  // 32 bytes, or any length in the tagged form
  std::string path;                    // the file to hash
  std::string shown;                   // the name as the verdict prints it
};

/// Parses one line of a check file, with or without its line ending (any "\r" and "\n" at the
/// end): the plain form "<64 hex>  <name>" or the tagged "BLAKE3 (<name>) = <hex>", either
/// after a backslash when the name is escaped. A tagged line may hold any whole number of
/// bytes of output, so that what `b3sum --tag -l N` writes checks back; a plain line holds
/// 32, as the official reads it. A malformed line gives the official b3sum 1.8's message for
/// it ("Invalid check line format", "Invalid hash length", "empty file path", ...).
std::variant<check_entry, const char*> parse_check_line(std::string_view line);

}  // namespace b3sum
