// How a tool's run ends: each tool's run(argc, argv) returns its exit status, so that tests
// can call it in the test process; nothing below it calls exit, it throws exit_status instead.
#pragma once

#include <string_view>

namespace tools {

struct exit_status {
  int code;
};

/// Ends the run with `status` (caught by the tool's run(), which returns it).
[[noreturn]] inline void finish(int status) { throw exit_status{status}; }

/// Called first by each tool's main: where memory runs out so early that the C++ runtime cannot
/// allocate the std::bad_alloc its run() would catch (under a small RLIMIT_AS), the tool writes
/// program + words + "\n" (its run()'s message for std::bad_alloc) and exits with status 1,
/// where std::terminate would abort.
void end_quietly_when_memory_runs_out(std::string_view program, const char* words) noexcept;

}  // namespace tools
