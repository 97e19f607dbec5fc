#include "run.hpp"

int main(int argc, char** argv) { return b3sum::run(argc, argv); }
