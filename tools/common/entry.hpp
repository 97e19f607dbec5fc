// The tools' entry point: each tool's main.cpp defines tool_main, which the program's entry for
// its OS calls (posix/entry.cpp: main; windows/entry.cpp: wmain, with the UTF-16 command line as
// UTF-8, wildcards expanded as the official b3sum's are there).
#pragma once

int tool_main(int argc, char** argv);
