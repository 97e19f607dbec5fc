// b3sum's --check (check.cpp): the verdicts on the lines of check files.
#pragma once

#include <string>

#include "../common/check.hpp"
#include "hashing.hpp"

namespace b3sum::detail {

/// Checks every line of one check file, printing their verdicts, and adds its counts to
/// `run_counts`. A check file that cannot be opened or read ends the run, as in the official
/// b3sum. Returns whether it passed.
bool check_file(const context& ctx, const std::string& name, tools::check_counts& run_counts);

}  // namespace b3sum::detail
