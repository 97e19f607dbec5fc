// b2sum as a function: the command line in, the exit status out, its output on the standard
// descriptors. Tests call it in their own process; main.cpp only calls it. Each call starts
// afresh (no state is kept between calls), but calls must not overlap.
#pragma once

namespace b2sum {

int run(int argc, char** argv);

}  // namespace b2sum
