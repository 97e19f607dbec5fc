// The tools' --progress (progress.hpp).
#include "progress.hpp"

#include <algorithm>
#include <cstdio>

#include "io.hpp"
#include "system.hpp"

namespace tools {
namespace {

constexpr auto redraw_interval = std::chrono::milliseconds(100);

std::string duration(double seconds) {
  const auto s = static_cast<std::uint64_t>(seconds + 0.5);
  char text[32];
  if (s >= 3600) {
    std::snprintf(
        text, sizeof text, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
        static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(text, sizeof text, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  }
  return text;
}

std::string rate(std::uint64_t bytes, double seconds) {
  if (seconds <= 0) return "";
  return human_bytes(static_cast<std::uint64_t>(static_cast<double>(bytes) / seconds)) + "/s";
}

// "label [=====>    ] details", the bar filling whatever the columns leave.
std::string bar_line(std::string label, std::uint64_t done, std::uint64_t size,
                     const std::string& details, int columns) {
  const std::size_t width = static_cast<std::size_t>(columns - 1);
  // The label keeps up to 30 columns, the bar takes what is left (at most 40).
  const std::size_t fixed = details.size() + 6 + std::min<std::size_t>(label.size(), 30);
  const std::size_t bar = width > fixed + 4 ? std::min<std::size_t>(40, width - fixed) : 0;
  const std::size_t label_room = width - std::min(width, details.size() + bar + 6);
  if (label.size() > label_room) {
    label = label_room > 3 ? "..." + label.substr(label.size() - (label_room - 3)) : "";
  }
  std::string line = label;
  if (bar > 2) {
    line += "  [";
    const std::size_t inner = bar - 2;
    const std::size_t filled =
        size == 0 ? 0
                  : static_cast<std::size_t>(
                        static_cast<double>(inner) *
                        std::min(1.0, static_cast<double>(done) / static_cast<double>(size)));
    line.append(filled, '=');
    if (filled < inner) {
      line.push_back(size == 0 ? ' ' : '>');
      line.append(inner - filled - 1, ' ');
    }
    line += "]";
  }
  line += "  " + details;
  return line.substr(0, width);
}

std::string amounts(std::uint64_t done, std::uint64_t size, double seconds) {
  std::string text = human_bytes(done);
  if (size != 0) text += " / " + human_bytes(size);
  if (const std::string r = rate(done, seconds); !r.empty()) text += "  " + r;
  if (size > done && done > 0 && seconds > 0) {
    const double left = static_cast<double>(size - done) * seconds / static_cast<double>(done);
    text += "  " + duration(left) + " left";
  }
  return text;
}

}  // namespace

std::string human_bytes(std::uint64_t n) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (n < 1024) return std::to_string(n) + " B";
  double value = static_cast<double>(n);
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, value < 10 ? "%.2f %s" : "%.1f %s", value, units[unit]);
  return text;
}

progress_display::progress_display(int fd, std::uint64_t total_bytes, std::size_t inputs)
    : fd_(fd), total_bytes_(total_bytes), inputs_(inputs) {}

void progress_display::start(const std::string& name) {
  const std::lock_guard lock(mutex_);
  name_ = name;
  for (char& c : name_) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // no terminal controls
  }
  done_ = 0;
  size_ = 0;
  file_start_ = clock::now();
}

void progress_display::update(std::uint64_t done, std::uint64_t size) {
  const std::lock_guard lock(mutex_);
  done_ = done;
  size_ = size;
  draw(false);
}

void progress_display::update_shared(std::uint64_t done, std::uint64_t size) {
  // Each file is reported from the one thread hashing it: a new size, or a count that went
  // back, is the next file on that thread.
  thread_local std::uint64_t last_done = 0, last_size = ~std::uint64_t{0};
  const std::uint64_t delta = size == last_size && done >= last_done ? done - last_done : done;
  last_done = done;
  last_size = size;
  const std::lock_guard lock(mutex_);
  shared_ = true;
  finished_bytes_ += delta;
  draw(false);
}

void progress_display::finish() {
  const std::lock_guard lock(mutex_);
  ++finished_;
  if (!shared_) finished_bytes_ += std::max(done_, size_);
  done_ = size_ = 0;
  name_.clear();
}

void progress_display::clear() {
  const std::lock_guard lock(mutex_);
  if (lines_drawn_ == 0) return;
  std::string erase = "\r\033[K";
  if (lines_drawn_ == 2) erase += "\033[1A\r\033[K";
  tools::write_all(fd_, erase);
  lines_drawn_ = 0;
}

std::string progress_display::file_line(double seconds, int columns) const {
  return bar_line(name_, done_, size_, amounts(done_, size_, seconds), columns);
}

std::string progress_display::total_line(double seconds, int columns) const {
  const std::uint64_t done = finished_bytes_ + (shared_ ? 0 : done_);
  std::string label = "total (" + std::to_string(std::min(finished_ + 1, inputs_)) + " of " +
                      std::to_string(inputs_) + ")";
  return bar_line(label, done, total_bytes_, amounts(done, total_bytes_, seconds), columns);
}

void progress_display::draw(bool force) {
  const auto now = clock::now();
  if (!force && (now - run_start_ < redraw_interval || now - last_draw_ < redraw_interval)) return;
  last_draw_ = now;
  const int columns = terminal_columns(fd_);
  const bool file = !shared_;
  const bool total = shared_ || inputs_ > 1;
  std::string text = lines_drawn_ == 2 ? "\033[1A\r" : "\r";
  if (file) {
    text += "\033[K" + file_line(std::chrono::duration<double>(now - file_start_).count(), columns);
  }
  if (file && total) text += "\n";
  if (total) {
    text += "\033[K" + total_line(std::chrono::duration<double>(now - run_start_).count(), columns);
  }
  tools::write_all(fd_, text);
  lines_drawn_ = int{file} + int{total};
}

}  // namespace tools
