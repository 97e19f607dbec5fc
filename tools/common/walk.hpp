// Walking directories for --recursive.
#pragma once

#include <string>
#include <vector>

namespace tools {

/// One input found by a walk: a file to hash, or a directory that could not be read.
struct walked {
  std::string path;
  int error = 0;  // errno for a directory that could not be listed, or ELOOP for a cycle
  // Where set, no input: what to report in place of the error's message (a bad entry of
  // --files0-from's list, whose place is the path).
  std::string problem = {};
};

/// Appends what `root` stands for to `out`: root itself if it is not a directory (whatever
/// it is, as named on the command line); else the regular files under it, depth first, each
/// directory's entries in byte order of their names, joined to root with '/'. Symbolic links
/// under root are skipped unless follow_links, and then followed to files and directories,
/// with a directory already being walked reported as a cycle. FIFOs, sockets and devices
/// under root are skipped: hashing them could block or never end.
void walk(const std::string& root, bool follow_links, std::vector<walked>& out);

}  // namespace tools
