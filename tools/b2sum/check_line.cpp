// b2sum's checksum-file lines (check_line.hpp).
#include "check_line.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <fastblake/detail/bytes.hpp>

#include "../common/escape.hpp"

namespace b2sum {
namespace {

using fastblake::detail::hex_digit_value;

bool all_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return hex_digit_value(c) >= 0; });
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The C string at the start of s: up to its first NUL.
std::string_view c_string(std::string_view s) { return s.substr(0, s.find('\0')); }

}  // namespace

std::optional<algorithm> tagged_algorithm(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  if (i < line.size() && line[i] == '\\') ++i;
  const std::string_view rest = line.substr(i);
  for (std::size_t a = 0; a < std::size(algorithms); ++a) {
    const std::string_view tag = algorithms[a].tag;
    if (rest.size() > tag.size() && rest.starts_with(tag) &&
        (rest[tag.size()] == '-' || rest[tag.size()] == '(' || is_blank(rest[tag.size()]))) {
      return static_cast<algorithm>(a);
    }
  }
  return std::nullopt;
}

std::optional<parsed_line> parse_line(std::string_view line, algorithm algo, plain_form& form) {
  const std::size_t max_bytes = info(algo).max_bytes;
  std::size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  const bool escape = i < line.size() && line[i] == '\\';
  if (escape) ++i;
  const auto name_of = [&](std::string_view raw, std::string& out) {
    if (!escape) {
      out.assign(c_string(raw));
      return true;
    }
    return raw.find('\0') == std::string_view::npos && tools::unescape_name(raw, out);
  };
  parsed_line p{"", "", 0, algo};
  const std::string_view tag = info(algo).tag;
  if (line.substr(i, tag.size()) == tag) {
    std::size_t k = i + tag.size();
    // GNU skips whatever follows the name up to a blank, '-' or '(' (BLAKE2bp reads as BLAKE2b).
    while (k < line.size() && line[k] != '\0' && !is_blank(line[k]) && line[k] != '-' &&
           line[k] != '(') {
      ++k;
    }
    std::size_t bits = 8 * max_bytes;
    if (k < line.size() && line[k] == '-') {
      // The length as strtoumax reads it: blanks, a sign, a 0x or 0 prefix.
      const std::string number(c_string(line.substr(k + 1)));
      char* end = nullptr;
      errno = 0;
      const unsigned long long v = std::strtoull(number.c_str(), &end, 0);
      if (end == number.c_str() || errno != 0 || v == 0 || v % 8 != 0 || v > 8 * max_bytes ||
          number.find('-') < static_cast<std::size_t>(end - number.c_str())) {
        return std::nullopt;
      }
      bits = static_cast<std::size_t>(v);
      k += 1 + static_cast<std::size_t>(end - number.c_str());
    }
    if (k < line.size() && line[k] == ' ') ++k;
    if (k < line.size() && line[k] == '(') {
      const std::string_view body = line.substr(k + 1);
      const std::size_t close = body.rfind(')');
      if (close == std::string_view::npos) return std::nullopt;
      std::size_t h = close + 1;
      while (h < body.size() && is_blank(body[h])) ++h;
      if (h == body.size() || body[h] != '=') return std::nullopt;
      ++h;
      while (h < body.size() && is_blank(body[h])) ++h;
      const std::string_view hex = c_string(body.substr(h));
      p.bytes = bits / 8;
      if (hex.size() != 2 * p.bytes || !all_hex(hex)) return std::nullopt;
      if (!name_of(body.substr(0, close), p.name)) return std::nullopt;
      p.hex.assign(hex);
      return p;
    }
  }
  std::size_t n = 0;
  while (i + n < line.size() && hex_digit_value(line[i + n]) >= 0) ++n;
  if (n < 2 || n % 2 != 0 || n > 2 * max_bytes) return std::nullopt;
  std::size_t k = i + n;
  if (k == line.size() || !is_blank(line[k])) return std::nullopt;
  ++k;
  if (line.size() - k == 1 || k == line.size() || (line[k] != ' ' && line[k] != '*')) {
    if (form == plain_form::with_mode) return std::nullopt;
    form = plain_form::reversed;
  } else if (form != plain_form::reversed) {
    form = plain_form::with_mode;
    ++k;
  }
  if (!name_of(line.substr(k), p.name)) return std::nullopt;
  p.hex.assign(line.substr(i, n));
  p.bytes = n / 2;
  return p;
}

}  // namespace b2sum
