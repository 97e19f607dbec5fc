#include "file_list.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace tools {

namespace {
// A name longer than this cannot be opened (PATH_MAX counts its NUL): it is reported, not held.
constexpr std::size_t longest_name = PATH_MAX;
}  // namespace

file_list::file_list(const std::string& list)
    : list_(list),
      fd_(list == "-" ? STDIN_FILENO : open_above_standard(list.c_str(), O_RDONLY | O_CLOEXEC)),
      owned_(list != "-"),
      open_error_(fd_ < 0 ? errno : 0),
      reader_(fd_, longest_name, '\0') {}

file_list::~file_list() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

bool file_list::next(std::vector<entry>& block, std::size_t max) {
  block.clear();
  if (open_error_ != 0) return false;
  while (block.size() < max && reader_.next(line_)) {
    ++number_;
    const bool ended = !line_.empty() && line_.back() == '\0';
    if (ended) line_.pop_back();
    const std::string place = list_ + ":" + std::to_string(number_);
    if (reader_.last_too_long()) {
      block.push_back({place, "File name too long"});
    } else if (line_.empty()) {
      block.push_back({place, "invalid zero-length file name"});
    } else if (list_ == "-" && line_ == "-") {
      block.push_back(
          {place, "when reading file names from standard input, no file name of '-' allowed"});
    } else {
      block.push_back({line_, ""});
    }
  }
  return !block.empty();
}

}  // namespace tools
