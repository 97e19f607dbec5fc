// The tools' entry on Windows (entry.hpp): wmain, so that names in any script reach the tools
// (the narrow command line holds only the code page's characters), converted to UTF-8, which
// the tools and the library's file API take. Linked with -municode.
#include <windows.h>

#include <string>
#include <vector>

#include "../entry.hpp"

// The C runtime expands wildcards in arguments that were not quoted, as the official b3sum
// does there (cmd leaves them to the program); an argument that matches nothing stays as it is.
extern "C" {
int _dowildcard = -1;
}

extern "C" int wmain(int argc, wchar_t** argv) {
  std::vector<std::string> arguments;
  arguments.reserve(static_cast<std::size_t>(argc));
  for (int i = 0; i < argc; ++i) {
    // (An unpaired surrogate becomes U+FFFD, as Rust's to_string_lossy makes it.)
    const int n = ::WideCharToMultiByte(CP_UTF8, 0, argv[i], -1, nullptr, 0, nullptr, nullptr);
    std::string& argument =
        arguments.emplace_back(static_cast<std::size_t>(n > 0 ? n - 1 : 0), '\0');
    ::WideCharToMultiByte(CP_UTF8, 0, argv[i], -1, argument.data(), n, nullptr, nullptr);
  }
  std::vector<char*> pointers;
  for (std::string& argument : arguments) pointers.push_back(argument.data());
  pointers.push_back(nullptr);
  return tool_main(argc, pointers.data());
}
