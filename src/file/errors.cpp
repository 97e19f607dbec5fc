// The file API's errors: its error category (file_errc), errno as an error code, and the
// messages of the exceptions the families' file functions throw.
#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <fastblake/file.hpp>

#include "file/engine.hpp"

namespace fastblake::internal {
namespace {

class file_error_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "fastblake.file"; }
  std::string message(int value) const override {
    switch (static_cast<file_errc>(value)) {
      case file_errc::truncated:
        return "the file shrank while it was being hashed";
    }
    return "unknown file error";
  }
};

}  // namespace

std::error_code errno_code(int e) noexcept { return {e, std::generic_category()}; }

// GCC 12 warns falsely (-Wrestrict) about chains of std::string operator+: appends instead.
void throw_file_error(const std::error_code& ec, std::string_view family, std::string_view what) {
  std::string message(family);
  message.append(": ").append(what);
  throw std::system_error(ec, message);
}

std::string quoted(const std::filesystem::path& path) {
  std::string s = "'";
  s.append(os::name_of(path));
  s.push_back('\'');
  return s;
}

std::string descriptor_name(int fd) {
  std::string name = "descriptor ";
  name.append(std::to_string(fd));
  return name;
}

}  // namespace fastblake::internal

namespace fastblake {

const std::error_category& file_category() noexcept {
  static const internal::file_error_category category;
  return category;
}

}  // namespace fastblake
