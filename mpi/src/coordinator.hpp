// fastblake::mpi's coordinator (mpi.cpp says how a job runs): on the root, it plans the job,
// hands items to the workers as they ask, runs the root's own worker, merges each file's
// pieces and reports the files in order.
#pragma once

#include <filesystem>
#include <span>

#include "protocol.hpp"

namespace fastblake::mpi::detail {

/// Runs the job of hash_files on the root (rank 0 of `comm`), every other rank serving.
void coordinate(const private_comm& comm, std::span<const std::filesystem::path> paths,
                const hazmat::mode& m, const options& o, const result_callback& done);

}  // namespace fastblake::mpi::detail
