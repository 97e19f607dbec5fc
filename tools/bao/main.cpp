#include <csignal>

#include "run.hpp"

int main(int argc, char** argv) {
  // As the Rust tool's runtime: a reader that goes away is an error to report (or, for
  // decoded output, the end of the run), not a signal that kills.
  std::signal(SIGPIPE, SIG_IGN);
  return bao_tool::run(argc, argv);
}
