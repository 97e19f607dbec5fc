// The bao tool as a function: the command line in, the exit status out, its output on the
// standard descriptors. Tests call it in their own process; main.cpp only calls it.
#pragma once

namespace bao_tool {

/// Runs `bao` with argv (argv[0] is the program's name). Never exits: returns the status.
int run(int argc, char** argv);

}  // namespace bao_tool
