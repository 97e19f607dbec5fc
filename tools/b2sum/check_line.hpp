// b2sum's algorithms and checksum-file lines, apart from the tool so that the fuzzer
// (tests/fuzz/b2sum_check_line.cpp) can reach them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <fastblake/blake2.hpp>

namespace b2sum {

using algorithm = fastblake::blake2::algorithm;

struct algorithm_info {
  std::string_view option;  // as -a takes it
  std::string_view tag;     // as --tag prints it
  std::size_t max_bytes;
};

inline constexpr algorithm_info algorithms[] = {
    {"blake2b", "BLAKE2b", 64},
    {"blake2s", "BLAKE2s", 32},
    {"blake2bp", "BLAKE2bp", 64},
    {"blake2sp", "BLAKE2sp", 32},
};

inline const algorithm_info& info(algorithm a) { return algorithms[static_cast<int>(a)]; }

struct parsed_line {
  std::string hex;
  std::string name;
  std::size_t bytes;
  algorithm algo;  // the algorithm the line was parsed for
};

/// The algorithm whose tag the line starts with exactly (after blanks and an escaping
/// backslash), followed by '-', a blank or '(': BLAKE2bp for "BLAKE2bp (f) = ...".
std::optional<algorithm> tagged_algorithm(std::string_view line);

/// Plain lines name their file after the hex and one blank, with a mode character (' ' or
/// '*') before the name unless the line is in the "reversed BSD" form; as GNU, the first line
/// decides which form every later line must take: the caller keeps the form across lines.
enum class plain_form { undecided, with_mode, reversed };

/// One line of a checksum file (without its line end) as GNU parses it: plain ("HEX  NAME",
/// "HEX *NAME", "HEX NAME"), the digest length taken from the hex, or tagged ("BLAKE2b[-BITS]
/// (NAME) = HEX", also without the space, as OpenSSL writes it). As in GNU's C, a NUL inside the
/// line ends the name and the hex there, and is refused inside an escaped name.
std::optional<parsed_line> parse_line(std::string_view line, algorithm algo, plain_form& form);

}  // namespace b2sum
