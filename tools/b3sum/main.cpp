#include "../common/entry.hpp"
#include "../common/run.hpp"
#include "run.hpp"

int tool_main(int argc, char** argv) {
  tools::end_quietly_when_memory_runs_out("", "Error: Cannot allocate memory (os error 12)");
  return b3sum::run(argc, argv);
}
