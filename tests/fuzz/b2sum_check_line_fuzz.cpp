// b2sum --check's line parser under a fuzzer, for every algorithm: each line of the input
// (one plain form decided by the first, as GNU does) either is refused or parses to whole
// bytes of hex within the algorithm's length and a name without NUL; a parsed line printed
// back as b2sum --tag prints it parses to the same name, hex and length.
#include <algorithm>
#include <string>
#include <string_view>

#include "../../tools/b2sum/check_line.hpp"
#include "../../tools/common/escape.hpp"
#include "fuzz_check.hpp"

namespace {

bool all_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

void check_line(std::string_view line, b2sum::algorithm algo, b2sum::plain_form& form) {
  const auto parsed = b2sum::parse_line(line, algo, form);
  if (!parsed) return;
  const auto& info = b2sum::info(algo);
  FUZZ_CHECK(parsed->bytes >= 1 && parsed->bytes <= info.max_bytes);
  FUZZ_CHECK(parsed->hex.size() == 2 * parsed->bytes);
  FUZZ_CHECK(all_hex(parsed->hex));
  FUZZ_CHECK(parsed->name.find('\0') == std::string::npos);
  // As b2sum --tag prints it.
  const bool escape = parsed->name.find_first_of("\\\n\r") != std::string::npos;
  std::string tagged = escape ? "\\" : "";
  tagged.append(info.tag);
  if (parsed->bytes != info.max_bytes) tagged.append("-").append(std::to_string(8 * parsed->bytes));
  tagged.append(" (")
      .append(escape ? tools::escape_name(parsed->name) : parsed->name)
      .append(") = ")
      .append(parsed->hex);
  b2sum::plain_form fresh = b2sum::plain_form::undecided;
  const auto again = b2sum::parse_line(tagged, algo, fresh);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->name == parsed->name);
  FUZZ_CHECK(again->hex == parsed->hex);
  FUZZ_CHECK(again->bytes == parsed->bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& algo : b2sum::algorithms) {
    const auto a = static_cast<b2sum::algorithm>(&algo - b2sum::algorithms);
    b2sum::plain_form form = b2sum::plain_form::undecided;
    std::size_t at = 0;
    while (at <= text.size()) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      check_line(text.substr(at, end - at), a, form);
      at = end + 1;
    }
  }
  return 0;
}
