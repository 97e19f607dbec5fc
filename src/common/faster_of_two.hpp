// Which of two ways of doing the same work is faster, measured as the work goes.
#pragma once

#include <cstdint>

namespace fastblake::internal {

/// Each way's rate is that of its latest measured runs (an average of the last two); a way
/// never measured is tried first (`first` before `second`), and the slower way is measured
/// again every `refresh_interval` choices, so that a change of load is noticed. Pure
/// arithmetic: tested with made-up timings.
class faster_of_two {
 public:
  enum class way { first, second };

  explicit constexpr faster_of_two(std::uint64_t refresh_interval) noexcept
      : refresh_interval_(refresh_interval) {}

  way choose() noexcept {
    ++choices_;
    if (first_rate_ == 0) return way::first;
    if (second_rate_ == 0) return way::second;
    const way faster = first_rate_ > second_rate_ ? way::first : way::second;
    if (choices_ % refresh_interval_ == 0) return faster == way::first ? way::second : way::first;
    return faster;
  }

  void record(way w, std::uint64_t bytes, double seconds) noexcept {
    if (seconds <= 0) return;
    const double rate = static_cast<double>(bytes) / seconds;
    double& r = w == way::first ? first_rate_ : second_rate_;
    r = r == 0 ? rate : (r + rate) / 2;
  }

  /// Bytes per second; 0 until measured.
  double rate(way w) const noexcept { return w == way::first ? first_rate_ : second_rate_; }

 private:
  std::uint64_t refresh_interval_;
  std::uint64_t choices_ = 0;
  double first_rate_ = 0;
  double second_rate_ = 0;
};

}  // namespace fastblake::internal
