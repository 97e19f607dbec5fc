#include "run.hpp"

int main(int argc, char** argv) { return b2sum::run(argc, argv); }
