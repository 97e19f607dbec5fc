// --files0-from=LIST: the names of the inputs, each ended by a NUL byte (the last one may lack
// it), read from the file LIST or from standard input ("-"), as GNU du and wc read them. Read a
// block of names at a time, so that a list of millions of files takes bounded memory and no
// argument list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io.hpp"

namespace tools {

class file_list {
 public:
  /// One entry of the list: a name, or where problem is set, no usable name: what to report in
  /// its place, as "NAME: PROBLEM" (name is then "LIST:N", the entry's place, as GNU names it).
  struct entry {
    std::string name;
    std::string problem;
  };

  /// Opens the list (standard input for "-"); open_error() is its errno where it cannot be.
  explicit file_list(const std::string& list);
  file_list(const file_list&) = delete;
  file_list& operator=(const file_list&) = delete;
  ~file_list();

  int open_error() const { return open_error_; }
  /// The next entries, up to max, into block (emptied first); false once the list has ended,
  /// or its reading failed (read_error()).
  bool next(std::vector<entry>& block, std::size_t max);
  /// The errno of a read of the list that failed, 0 if none.
  int read_error() const { return reader_.error(); }

 private:
  std::string list_;
  int fd_ = -1;
  bool owned_ = false;
  int open_error_ = 0;
  line_reader reader_;
  std::uint64_t number_ = 0;
  std::string line_;
};

}  // namespace tools
