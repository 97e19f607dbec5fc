// The escaping of names in checksum lines that both tools share, as GNU's coreutils and the
// official b3sum write it: a backslash, newline or carriage return becomes \\, \n or \r, and
// the line then starts with a backslash (which the tools add).
#pragma once

#include <string>
#include <string_view>

namespace tools {

/// Whether the name needs escaping.
inline bool needs_escape(std::string_view name) {
  return name.find_first_of("\\\n\r") != std::string_view::npos;
}

inline std::string escape_name(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 8);
  for (char c : name) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '\n') {
      out.append("\\n");
    } else if (c == '\r') {
      out.append("\\r");
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// Undoes escape_name into out; false for a backslash before anything but \\, n or r, or at
/// the end.
inline bool unescape_name(std::string_view s, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out.push_back(s[i]);
      continue;
    }
    if (++i == s.size()) return false;
    if (s[i] == '\\') {
      out.push_back('\\');
    } else if (s[i] == 'n') {
      out.push_back('\n');
    } else if (s[i] == 'r') {
      out.push_back('\r');
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace tools
