// The tools' --progress (b3sum, bao): a bar on standard error while files are hashed.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace tools {

/// Draws, on a terminal, a line for the file being hashed (its name, a bar, bytes done and
/// its size, the rate and the time left) and, when several inputs are hashed, a total line
/// below it. Redrawn at most ten times a second, and only once hashing has taken a tenth of a
/// second; clear() erases it, leaving the cursor at the start of a clean line.
class progress_display {
 public:
  /// total_bytes: the size of everything to hash (0 when unknown); inputs: how many there are.
  progress_display(int fd, std::uint64_t total_bytes, std::size_t inputs);
  ~progress_display() { clear(); }
  progress_display(const progress_display&) = delete;
  progress_display& operator=(const progress_display&) = delete;

  /// A new input begins, named as it is to be shown (b3sum: lossy UTF-8).
  void start(const std::string& name);
  /// The input being hashed is `done` bytes in, of `size` (0 when unknown).
  void update(std::uint64_t done, std::uint64_t size);
  /// Progress of files hashed at once by -j: done bytes of some file of `size`, reported from
  /// the thread hashing it; only the total line is drawn.
  void update_shared(std::uint64_t done, std::uint64_t size);
  /// The input being hashed is finished.
  void finish();
  /// Erases what is drawn.
  void clear();

 private:
  using clock = std::chrono::steady_clock;
  void draw(bool force);
  std::string file_line(double seconds, int columns) const;
  std::string total_line(double seconds, int columns) const;

  std::mutex mutex_;
  int fd_;
  std::uint64_t total_bytes_;
  std::size_t inputs_;
  std::size_t finished_ = 0;
  std::uint64_t finished_bytes_ = 0;  // of inputs already finished
  std::string name_;
  std::uint64_t done_ = 0;
  std::uint64_t size_ = 0;
  bool shared_ = false;
  clock::time_point run_start_ = clock::now();
  clock::time_point file_start_ = run_start_;
  clock::time_point last_draw_{};
  int lines_drawn_ = 0;
};

/// Byte counts as the bar shows them: "512 B", "12.3 MiB", "1.50 GiB".
std::string human_bytes(std::uint64_t n);

}  // namespace tools
