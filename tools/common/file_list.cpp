#include "file_list.hpp"

#include <cerrno>

namespace tools {

file_list::file_list(const std::string& list)
    : list_(list),
      fd_(list == "-" ? standard_input : open_for_reading(list)),
      owned_(list != "-"),
      open_error_(fd_ < 0 ? errno : 0),
      reader_(fd_, longest_name, '\0') {}

file_list::~file_list() {
  if (owned_ && fd_ >= 0) close_descriptor(fd_);
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
