// Walking directories for --recursive (walk.hpp).
#include "walk.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <utility>

namespace tools {
namespace {

using directory_id = std::pair<dev_t, ino_t>;

void walk_directory(const std::string& path, const struct stat& info, bool follow_links,
                    std::vector<directory_id>& open_path, std::vector<walked>& out) {
  const directory_id id{info.st_dev, info.st_ino};
  if (std::find(open_path.begin(), open_path.end(), id) != open_path.end()) {
    out.push_back({path, ELOOP});
    return;
  }
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    out.push_back({path, errno});
    return;
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
    errno = 0;
  }
  const int read_error = errno;
  ::closedir(dir);
  if (read_error != 0) {
    out.push_back({path, read_error});
    return;
  }
  std::sort(names.begin(), names.end());
  open_path.push_back(id);
  const std::string prefix = path.ends_with('/') ? path : path + "/";
  for (const std::string& name : names) {
    const std::string child = prefix + name;
    struct stat child_info;
    if (::lstat(child.c_str(), &child_info) != 0) {
      out.push_back({child, 0});  // gone or unreadable: hashing it reports why
      continue;
    }
    if (S_ISLNK(child_info.st_mode)) {
      if (!follow_links) continue;
      if (::stat(child.c_str(), &child_info) != 0) {
        out.push_back({child, 0});  // a dangling link: hashing it reports why
        continue;
      }
    }
    if (S_ISDIR(child_info.st_mode)) {
      walk_directory(child, child_info, follow_links, open_path, out);
    } else if (S_ISREG(child_info.st_mode)) {
      out.push_back({child, 0});
    }
  }
  open_path.pop_back();
}

}  // namespace

void walk(const std::string& root, bool follow_links, std::vector<walked>& out) {
  struct stat info;
  if (root == "-" || ::stat(root.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    out.push_back({root, 0});
    return;
  }
  std::vector<directory_id> open_path;
  walk_directory(root, info, follow_links, open_path, out);
}

}  // namespace tools
