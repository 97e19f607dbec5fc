// b3sum --check's line parser under a fuzzer: any line either gets one of the official 1.8
// messages or parses to a path that is not empty, valid UTF-8 and without NUL; and a parsed
// line, printed back as b3sum prints it (plain where it holds 32 bytes, tagged where its name
// holds no two spaces running), parses to the same path and digest.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

#include <fastblake/blake3.hpp>
#include <fastblake/detail/bytes.hpp>

#include "../../tools/b3sum/check_line.hpp"
#include "fuzz_check.hpp"

namespace {

constexpr std::string_view messages[] = {"Empty line",
                                         "Invalid check line format",
                                         "Invalid hash length",
                                         "Invalid hex",
                                         "Invalid backslash escape",
                                         "empty file path",
                                         "Null character in path",
                                         "Unicode replacement character in path"};

void same_entry(const std::string& line, const b3sum::check_entry& want) {
  const auto again = b3sum::parse_check_line(line);
  FUZZ_CHECK(std::holds_alternative<b3sum::check_entry>(again));
  const auto& got = std::get<b3sum::check_entry>(again);
  FUZZ_CHECK(got.path == want.path);
  FUZZ_CHECK(got.expected == want.expected);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto parsed = b3sum::parse_check_line(line);
  if (const auto* why = std::get_if<const char*>(&parsed)) {
    FUZZ_CHECK(std::find(std::begin(messages), std::end(messages), std::string_view(*why)) !=
               std::end(messages));
    return 0;
  }
  const auto& entry = std::get<b3sum::check_entry>(parsed);
  FUZZ_CHECK(entry.path.find('\0') == std::string::npos);
  FUZZ_CHECK(b3sum::lossy_utf8(entry.path) == entry.path);
  bool escaped = false;
  const std::string shown = b3sum::shown_name(entry.path, escaped);
  const std::string hex = fastblake::detail::to_hex(entry.expected.data(), entry.expected.size());
  FUZZ_CHECK(!entry.path.empty());
  // The plain form holds 32 bytes.
  if (entry.expected.size() == 32) {
    std::string plain = escaped ? "\\" : "";
    plain.append(hex).append("  ").append(shown).append("\n");
    same_entry(plain, entry);
  }
  // A tagged line whose name holds two spaces reads as a plain one, as the official's does.
  if (shown.find("  ") == std::string::npos) {
    std::string tagged = escaped ? "\\" : "";
    tagged.append("BLAKE3 (").append(shown).append(") = ").append(hex).append("\n");
    same_entry(tagged, entry);
  }
  return 0;
}
