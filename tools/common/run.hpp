// How a tool's run ends: each tool's run(argc, argv) returns its exit status, so that tests
// can call it in the test process; nothing below it calls exit, it throws exit_status instead.
#pragma once

namespace tools {

struct exit_status {
  int code;
};

/// Ends the run with `status` (caught by the tool's run(), which returns it).
[[noreturn]] inline void finish(int status) { throw exit_status{status}; }

}  // namespace tools
