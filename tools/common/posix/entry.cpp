// The tools' entry on POSIX systems (entry.hpp): the arguments are the bytes the caller gave.
#include "../entry.hpp"

int main(int argc, char** argv) { return tool_main(argc, argv); }
