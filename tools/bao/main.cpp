#include "../common/entry.hpp"
#include "../common/run.hpp"
#include "../common/system.hpp"
#include "run.hpp"

int tool_main(int argc, char** argv) {
  tools::end_quietly_when_memory_runs_out("", "Error: Cannot allocate memory (os error 12)");
  // As the Rust tool's runtime: a reader that goes away is an error to report (or, for
  // decoded output, the end of the run), not a signal that kills.
  tools::ignore_broken_pipes();
  return bao_tool::run(argc, argv);
}
