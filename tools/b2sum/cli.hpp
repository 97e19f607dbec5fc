// What b2sum's command line (options.cpp), its checking (check.cpp) and its run (b2sum.cpp)
// share: the settings, hashing a named file, and how the run ends.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <fastblake/file.hpp>

#include "../common/check.hpp"
#include "check_line.hpp"

namespace b2sum::detail {

/// Whether standard input was read: GNU then closes it at exit and reports a failure.
extern bool stdin_used;

struct settings {
  algorithm algo = algorithm::blake2b;
  std::size_t bytes = 64;
  bool tag = false;
  // Whether lines say '*' (binary mode): for files, and for standard input.
  bool binary = false;
  bool binary_stdin = false;
  char delimiter = '\n';
  // Every input is read with read(2) to its end, as GNU reads it (a file that grows is hashed
  // to its new end), the next buffer read ahead on the pool while one is hashed; BLAKE2bp and
  // BLAKE2sp also split their leaves there.
  fastblake::file_options file = streaming();

  static fastblake::file_options streaming() {
    fastblake::file_options o;
    o.strategy = fastblake::file_strategy::stream;
    return o;
  }
};

struct result {
  std::string hex;
  int error = 0;
};

/// Hashes the file `name` ("-": standard input) as `s` says: its digest in hex, or the errno
/// GNU would report.
result hash_named(const std::string& name, const settings& s);

/// What the command line asks for.
struct command {
  settings s;
  tools::check_options o;
  bool check = false;
  std::size_t jobs = 1;
  std::size_t leaf_threads = 0;
  std::vector<std::string> files;
  const char* files0_from = nullptr;  // the list of FILEs, in place of the operands
};

/// As GNU parses and checks it: a usage error or --help and --version end the run here.
command parse_command_line(int argc, char** argv);

/// Standard output at exit, as GNU's close_stdout sees it, and a closed standard input once
/// read: the exit status, `status` or a failure.
int finish_output(int status);

}  // namespace b2sum::detail
