// b3sum's names and check-file lines, apart from the tool so that the fuzzer
// (tests/fuzz/b3sum_check_line.cpp) can reach them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace b3sum {

/// Rust's String::from_utf8_lossy: each maximal invalid subsequence becomes U+FFFD.
std::string lossy_utf8(std::string_view s);

/// The name as printed: lossy UTF-8, with backslashes, newlines and carriage returns escaped;
/// `escaped` says whether the line needs the leading backslash.
std::string shown_name(std::string_view name, bool& escaped);

/// One well-formed line of a check file.
struct check_entry {
  std::array<std::uint8_t, 32> expected;
  std::string path;   // the file to hash
  std::string shown;  // the name as the verdict prints it
};

/// Parses one line of a check file, with or without its line ending ("\n" or "\r\n"): the
/// plain form "<64 hex>  <name>" or the tagged "BLAKE3 (<name>) = <64 hex>", either after a
/// backslash when the name is escaped. A malformed line gives the official b3sum's message
/// for it ("Short line", "Invalid hex", ...).
std::variant<check_entry, const char*> parse_check_line(std::string_view line);

}  // namespace b3sum
