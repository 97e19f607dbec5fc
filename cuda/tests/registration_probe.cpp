// Links fastblake::cuda and calls nothing in it: the backend must still register itself with
// the CPU library's automatic functions. Prints the registered accelerator's name.
#include <cstdio>
#include <string>

#include <fastblake/backend.hpp>

int main() {
  const std::string name(fastblake::current_offload().name);
  std::printf("offload: %s\n", name.empty() ? "(none)" : name.c_str());
  return name == "cuda" ? 0 : 1;
}
