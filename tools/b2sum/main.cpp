#include "../common/entry.hpp"
#include "../common/run.hpp"
#include "../common/system.hpp"
#include "run.hpp"

int tool_main(int argc, char** argv) {
  // GNU's xalloc_die(), named as b2sum's messages are.
  tools::end_quietly_when_memory_runs_out(
      tools::program_name(argc > 0 ? argv[0] : nullptr, "b2sum"), ": memory exhausted");
  return b2sum::run(argc, argv);
}
