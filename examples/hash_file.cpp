// Prints the BLAKE3 hash of each file named on the command line, as b3sum does, reading each
// file in 64 KiB pieces through the streaming hasher.
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <fastblake/fastblake.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: hash_file FILE...\n";
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::cerr << "hash_file: " << argv[i] << ": cannot open\n";
      status = 1;
      continue;
    }
    fastblake::blake3::hasher h;
    std::array<char, 65536> buf;
    while (in.read(buf.data(), buf.size()) || in.gcount() > 0) {
      h.update(std::string_view(buf.data(), static_cast<std::size_t>(in.gcount())));
    }
    std::cout << h.finalize() << "  " << argv[i] << '\n';
  }
  return status;
}
