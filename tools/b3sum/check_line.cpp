// b3sum's names and check-file lines (check_line.hpp).
#include "check_line.hpp"

#include <algorithm>

#include <fastblake/detail/bytes.hpp>

#include "../common/escape.hpp"
#include "../common/system.hpp"

namespace b3sum {
namespace {

// As the official b3sum: lowercase digits only.
int hex_value(char c) { return c >= 'A' && c <= 'F' ? -1 : fastblake::detail::hex_digit_value(c); }

}  // namespace

// Rust's String::from_utf8_lossy: each maximal invalid subsequence becomes U+FFFD.
std::string lossy_utf8(std::string_view s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    std::size_t j = 1;
    for (; j <= need && i + j < s.size(); ++j) {
      const auto d = static_cast<unsigned char>(s[i + j]);
      const unsigned char l = j == 1 ? lo : 0x80, h = j == 1 ? hi : 0xBF;
      if (d < l || d > h) break;
    }
    if (j == need + 1) {
      out.append(s.substr(i, need + 1));
      i += need + 1;
    } else {
      out += "\xEF\xBF\xBD";
      i += j;
    }
  }
  return out;
}

// The name as printed: lossy UTF-8, with backslashes, newlines and carriage returns escaped;
// `escaped` says whether the line needs the leading backslash.
std::string portable_name(std::string_view name) {
  std::string text = lossy_utf8(name);
  if (tools::backslash_separates_folders) std::replace(text.begin(), text.end(), '\\', '/');
  return text;
}

std::string shown_name(std::string_view name, bool& escaped) {
  const std::string text = portable_name(name);
  escaped = tools::needs_escape(text);
  if (!escaped) return text;
  return tools::escape_name(text);
}

// The official b3sum 1.8's parse_check_line, step by step (its unit tests are in
// tools/b3sum/tests/b3sum_official_test.py), but for tagged lines of other lengths than 32 bytes.
std::variant<check_entry, const char*> parse_check_line(std::string_view line) {
  while (line.ends_with('\n') || line.ends_with('\r')) line.remove_suffix(1);
  if (line.empty()) return "Empty line";
  bool escaped = false;
  if (line[0] == '\\') {
    escaped = true;
    line.remove_prefix(1);
  }
  // The plain form is tried first, so a tagged line whose name holds two spaces is read as
  // plain (and refused for its "hash"), as the official reads it.
  std::string_view hex, name;
  bool tagged = false;
  if (const auto spaces = line.find("  "); spaces != std::string_view::npos) {
    hex = line.substr(0, spaces);
    name = line.substr(spaces + 2);
  } else if (line.starts_with("BLAKE3 (")) {
    const std::string_view rest = line.substr(8);
    const auto close = rest.rfind(") = ");
    if (close == std::string_view::npos) return "Invalid check line format";
    name = rest.substr(0, close);
    hex = rest.substr(close + 4);
    tagged = true;
  } else {
    return "Invalid check line format";
  }
  // A tagged line may hold any whole number of bytes, so that `b3sum --tag -l N` checks back
  // (a difference from the official, which takes 32 only).
  if (tagged ? hex.empty() || hex.size() % 2 != 0 : hex.size() != 2 * 32) {
    return "Invalid hash length";
  }
  check_entry entry;
  entry.expected.resize(hex.size() / 2);
  for (std::size_t i = 0; i < entry.expected.size(); ++i) {
    const int h = hex_value(hex[2 * i]), l = hex_value(hex[2 * i + 1]);
    if (h < 0 || l < 0) return "Invalid hex";
    entry.expected[i] = static_cast<std::uint8_t>(16 * h + l);
  }
  if (escaped) {
    if (!tools::unescape_name(name, entry.path)) return "Invalid backslash escape";
  } else {
    entry.path = std::string(name);
  }
  if (entry.path.empty()) return "empty file path";
  if (entry.path.find('\0') != std::string::npos) return "Null character in path";
  // As the official b3sum: a name that holds U+FFFD may not be the file that was hashed, whose
  // name printing turned into U+FFFD. (Bytes that are not UTF-8, which the official's reading
  // refuses before any line is parsed, are refused here alike.)
  if (lossy_utf8(entry.path).find("\xEF\xBF\xBD") != std::string::npos) {
    return "Unicode replacement character in path";
  }
  // Where a backslash separates folders, one in a check file (which the official b3sum never
  // writes there) might name another file than the one hashed where it was written.
  if (tools::backslash_separates_folders && entry.path.find('\\') != std::string::npos) {
    return "Backslash in path";
  }
  entry.shown = escaped ? "\\" : "";
  entry.shown.append(name);
  return entry;
}

}  // namespace b3sum
