// Walking directories for --recursive (walk.hpp).
#include "walk.hpp"

#include <algorithm>
#include <cerrno>

#include "system.hpp"

namespace tools {
namespace {

void walk_directory(const std::string& path, const file_status& info, bool follow_links,
                    std::vector<file_status>& open_path, std::vector<walked>& out) {
  if (std::any_of(open_path.begin(), open_path.end(),
                  [&](const file_status& open) { return open.same_file_as(info); })) {
    out.push_back({path, ELOOP});
    return;
  }
  std::vector<directory_entry> entries;
  if (const int error = list_directory(path, entries); error != 0) {
    out.push_back({path, error});
    return;
  }
  std::sort(entries.begin(), entries.end());
  open_path.push_back(info);
  const std::string prefix = path.ends_with('/') ? path : path + "/";
  for (const directory_entry& entry : entries) {
    const std::string child = prefix + entry.name;
    // A regular file as listed is hashed without more questions (one gone since is an error
    // then); anything else is asked about: a directory for its identity, a link where it leads.
    if (entry.kind == file_kind::regular) {
      out.push_back({child, 0});
      continue;
    }
    if (entry.kind == file_kind::other) continue;
    file_status child_info;
    if (!status_of(child, false, child_info)) {
      out.push_back({child, 0});  // gone or unreadable: hashing it reports why
      continue;
    }
    if (child_info.kind == file_kind::link) {
      if (!follow_links) continue;
      if (!status_of(child, true, child_info)) {
        out.push_back({child, 0});  // a dangling link: hashing it reports why
        continue;
      }
    }
    if (child_info.kind == file_kind::directory) {
      walk_directory(child, child_info, follow_links, open_path, out);
    } else if (child_info.kind == file_kind::regular) {
      out.push_back({child, 0});
    }
  }
  open_path.pop_back();
}

}  // namespace

void walk(const std::string& root, bool follow_links, std::vector<walked>& out) {
  file_status info;
  if (root == "-" || !status_of(root, true, info) || info.kind != file_kind::directory) {
    out.push_back({root, 0});
    return;
  }
  std::vector<file_status> open_path;
  walk_directory(root, info, follow_links, open_path, out);
}

}  // namespace tools
