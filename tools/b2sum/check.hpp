// b2sum's checking, -c (check.cpp): the verdicts on the lines of checksum files.
#pragma once

#include <string>

#include "../common/check.hpp"
#include "check_line.hpp"
#include "cli.hpp"

namespace b2sum::detail {

/// As GNU, the first plain line decides the form every later line, of every checksum file,
/// must take.
extern plain_form plain_line_form;

/// Checks one checksum file; returns whether everything in it passed.
bool check_file(const std::string& list, const settings& s, const tools::check_options& o);

}  // namespace b2sum::detail
