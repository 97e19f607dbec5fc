// fastblake::mpi (mpi.hpp): BLAKE3 across the ranks of an MPI job.
//
// A job is a list of ranges of files. Rank 0 (the root) plans it: files up to the piece size
// are hashed whole, many to a work item; larger files are cut into pieces of the piece size,
// each a whole subtree of the file's BLAKE3 tree. A coordinator on the root's calling thread
// hands items out one at a time to whichever worker asks (each rank, the root included, runs
// one), so a slow node or disk holds back only its own item. A worker sends back chaining
// values; the root merges each file's in tree order and reports the files in order.
//
// protocol.hpp holds the messages, worker.cpp the workers, coordinator.cpp the root's side;
// this file, the API over them.
#include <fastblake/mpi.hpp>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "coordinator.hpp"
#include "protocol.hpp"
#include "worker.hpp"

namespace fastblake::mpi {
namespace {

using namespace detail;

class mpi_error_category final : public std::error_category {
 public:
  const char* name() const noexcept override { return "fastblake.mpi"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::size_changed:
        return "the file changed size while it was being hashed";
    }
    return "unknown fastblake.mpi error";
  }
};

}  // namespace

const std::error_category& category() noexcept {
  static const mpi_error_category instance;
  return instance;
}

void hash_files(MPI_Comm comm, std::span<const std::filesystem::path> paths, const hazmat::mode& m,
                const options& o, const result_callback& done) {
  const private_comm job(comm);
  if (job.rank() != 0) {
    serve(job, m, o);
    return;
  }
  coordinate(job, paths, m, o, done);
}

b3::output_reader hash_file(MPI_Comm comm, const std::filesystem::path& path, const hazmat::mode& m,
                            const options& o, std::error_code& ec) {
  // The root's outcome travels to every rank: its error, or the reader itself. A reader is a
  // plain value (the root node and a position), and every rank runs the same library.
  static_assert(std::is_trivially_copyable_v<b3::output_reader>);
  const private_comm job(comm);
  std::optional<b3::file_result> result;
  hash_files(job.get(), std::span(&path, 1), m, o,
             [&](std::size_t, b3::file_result&& r) { result.emplace(std::move(r)); });
  std::vector<std::byte> outcome;
  if (job.rank() == 0) {
    writer w;
    w.put(static_cast<std::uint8_t>(result->error ? 1 : 0));
    if (result->error) {
      put_error(w, result->error);
    } else {
      w.put_bytes(std::as_bytes(std::span(&result->output, 1)));
    }
    outcome = std::move(w.bytes());
  }
  broadcast(job, outcome);
  reader rd(outcome);
  b3::output_reader output = b3::hasher().finalize_xof();
  if (rd.get<std::uint8_t>() != 0) {
    ec = get_error(rd);
    return output;
  }
  std::memcpy(static_cast<void*>(&output), rd.take(sizeof output).data(), sizeof output);
  ec.clear();
  return output;
}

b3::output_reader hash_file(MPI_Comm comm, const std::filesystem::path& path, const hazmat::mode& m,
                            const options& o) {
  std::error_code ec;
  b3::output_reader r = hash_file(comm, path, m, o, ec);
  if (ec) throw std::filesystem::filesystem_error("fastblake::mpi::hash_file", path, ec);
  return r;
}

b3::output_reader hash_distributed(MPI_Comm comm, std::span<const std::byte> local,
                                   const hazmat::mode& m, thread_pool* pool) {
  const private_comm job(comm);
  const int ranks = job.size();
  const auto me = static_cast<std::size_t>(job.rank());
  // Where each rank's bytes lie in the input.
  std::vector<std::uint64_t> held(static_cast<std::size_t>(ranks));
  const std::uint64_t mine = local.size();
  MPI_Request request;
  MPI_Iallgather(&mine, 1, MPI_UINT64_T, held.data(), 1, MPI_UINT64_T, job.get(), &request);
  wait_request(request);
  std::vector<std::uint64_t> start(held.size() + 1, 0);
  for (std::size_t r = 0; r < held.size(); ++r) start[r + 1] = start[r] + held[r];
  const std::uint64_t total = start.back();

  // Each rank hashes the chunks that begin in its bytes: [owned(r), owned(r + 1)). The bytes
  // of its last chunk that lie on later ranks come to it; the input of one chunk goes to all.
  const auto round_up = [&](std::uint64_t at) {
    return std::min(total, (at + b3::chunk_size - 1) / b3::chunk_size * b3::chunk_size);
  };
  const auto owned_begin = [&](std::size_t r) -> std::uint64_t {
    if (total <= b3::chunk_size) return 0;
    return round_up(start[r]);
  };
  const auto owned_end = [&](std::size_t r) -> std::uint64_t {
    if (total <= b3::chunk_size) return total;
    return r + 1 == held.size() ? total : round_up(start[r + 1]);
  };
  // Bytes of rank r's that rank s needs beyond its own: [from, to) of the input.
  const auto shared_bytes = [&](std::size_t r,
                                std::size_t s) -> std::pair<std::uint64_t, std::uint64_t> {
    if (r == s) return {0, 0};
    if (total <= b3::chunk_size) return {start[r], start[r + 1]};
    const std::uint64_t from = std::max(start[r], std::max(owned_begin(s), start[s + 1]));
    const std::uint64_t to = std::min(start[r + 1], owned_end(s));
    return from < to ? std::pair{from, to} : std::pair{std::uint64_t{0}, std::uint64_t{0}};
  };
  std::vector<int> send_counts(held.size()), send_offsets(held.size()), receive_counts(held.size()),
      receive_offsets(held.size());
  int received = 0;
  for (std::size_t r = 0; r < held.size(); ++r) {
    const auto [from, to] = shared_bytes(me, r);
    send_counts[r] = static_cast<int>(to - from);
    send_offsets[r] = from < to ? static_cast<int>(from - start[me]) : 0;
    const auto [in_from, in_to] = shared_bytes(r, me);
    receive_counts[r] = static_cast<int>(in_to - in_from);
    receive_offsets[r] = received;
    received += receive_counts[r];
  }
  // A rank sends only from the head of its bytes (under a chunk) or, for one chunk in all,
  // everything it has; send_offsets index into `local`.
  std::vector<std::byte> tail(static_cast<std::size_t>(received));
  MPI_Ialltoallv(local.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, tail.data(),
                 receive_counts.data(), receive_offsets.data(), MPI_BYTE, job.get(), &request);
  wait_request(request);

  if (total <= b3::chunk_size) {
    // The received bytes are the other ranks' in rank order; this rank's own go in its place.
    std::vector<std::byte> all;
    std::size_t taken = 0;
    for (std::size_t r = 0; r < held.size(); ++r) {
      if (r == me) {
        all.insert(all.end(), local.begin(), local.end());
      } else {
        const auto n = static_cast<std::size_t>(receive_counts[r]);
        all.insert(all.end(), tail.begin() + static_cast<std::ptrdiff_t>(taken),
                   tail.begin() + static_cast<std::ptrdiff_t>(taken + n));
        taken += n;
      }
    }
    return b3::hasher(m).update(all).finalize_xof();
  }

  // This rank's subtrees: the largest that fit, in order, over its own bytes and the tail.
  thread_pool& threads = pool != nullptr ? *pool : thread_pool::default_pool();
  const std::uint64_t begin = owned_begin(me), end = owned_end(me);
  const auto bytes_of = [&](std::uint64_t from, std::uint64_t to, b3::hasher& h) {
    const std::uint64_t own_end = std::min(to, start[me + 1]);
    if (from < own_end) {
      h.update_parallel(local.subspan(static_cast<std::size_t>(from - start[me]),
                                      static_cast<std::size_t>(own_end - from)),
                        threads);
    }
    if (to > own_end) {
      const std::uint64_t tail_from = std::max(from, start[me + 1]);
      h.update(std::span(tail).subspan(static_cast<std::size_t>(tail_from - start[me + 1]),
                                       static_cast<std::size_t>(to - tail_from)));
    }
  };
  std::vector<piece> pieces;
  for (std::uint64_t at = begin; at < end;) {
    const std::uint64_t length = subtree_at(at, end, total);
    b3::hasher h(m);
    hazmat::set_input_offset(h, at);
    bytes_of(at, at + length, h);
    pieces.push_back({at, length, hazmat::finalize_non_root(h)});
    at += length;
  }

  // Every rank merges every rank's subtrees.
  static_assert(std::is_trivially_copyable_v<piece>);
  const int my_count = static_cast<int>(pieces.size() * sizeof(piece));
  std::vector<int> counts(held.size()), offsets(held.size());
  MPI_Iallgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, job.get(), &request);
  wait_request(request);
  int all_bytes = 0;
  for (std::size_t r = 0; r < held.size(); ++r) {
    offsets[r] = all_bytes;
    all_bytes += counts[r];
  }
  std::vector<piece> all(static_cast<std::size_t>(all_bytes) / sizeof(piece));
  MPI_Iallgatherv(pieces.data(), my_count, MPI_BYTE, all.data(), counts.data(), offsets.data(),
                  MPI_BYTE, job.get(), &request);
  wait_request(request);
  return merge_root(all, total, m);
}

}  // namespace fastblake::mpi
