#include "../common/entry.hpp"
#include "../common/run.hpp"
#include "run.hpp"

int tool_main(int argc, char** argv) {
  // GNU's xalloc_die(), named by argv[0] as b2sum's messages are.
  tools::end_quietly_when_memory_runs_out(
      argc > 0 && argv[0] != nullptr && argv[0][0] != '\0' ? argv[0] : "b2sum",
      ": memory exhausted");
  return b2sum::run(argc, argv);
}
