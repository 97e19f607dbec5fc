// b3sum-mpi: b3sum across the ranks of an MPI job. Rank 0 runs b3sum itself (its options,
// output, messages and exit status), handing every file it would hash to
// fastblake::mpi::hash_files; the other ranks hash their shares of each such batch, until
// rank 0 tells them the run is over and how it ended.
//
// FASTBLAKE_MPI_PIECE_SIZE (bytes, a power of two from 1024) sets the piece size, and
// FASTBLAKE_MPI_STATS=1 prints what the job did at the end, on stderr (mpi/README.md).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fastblake/mpi.hpp>

#include "../b3sum/run.hpp"
#include "../common/system.hpp"

namespace {

namespace b3 = fastblake::blake3;

// What rank 0 broadcasts before each batch: a job, or the end of the run.
struct announcement {
  std::uint8_t job = 0;  // 0: the run is over, with `status`
  std::int32_t status = 0;
  std::uint8_t mode = 0;
  b3::key_type key{};
  std::uint64_t threads = 0;  // 0: rank_threads()
  std::uint8_t strategy = 0;  // a fastblake::file_strategy
  std::uint32_t context_size = 0;
};

const b3sum::identity b3sum_mpi{
    "Print or check BLAKE3 checksums across the ranks of an MPI job (fastblake)\n"
    "\n"
    "Usage: mpirun [MPIRUN OPTIONS] b3sum-mpi [OPTIONS] [FILE]...\n"
    "\n"
    "Rank 0 reads the command line and prints what b3sum would print; every rank hashes its\n"
    "share of each batch of files, and of each big file.\n",
    "\n"
    "Environment:\n"
    "  FASTBLAKE_MPI_PIECE_SIZE  Bytes of a big file each rank takes at a time (a power of two,\n"
    "                            1024 or more)\n"
    "  FASTBLAKE_MPI_STATS=1     Print what the job did on stderr at the end\n"
    "\n"
    "mpirun -np N b3sum-mpi ... prints nothing of its own on success and says why it failed\n"
    "(its -q hides that too); add --oversubscribe for more ranks than cores, and set\n"
    "OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 to run as root.\n",
    "b3sum-mpi " FASTBLAKE_VERSION_STRING};

fastblake::mpi::options options_from_environment() {
  fastblake::mpi::options o;
  if (const char* piece = std::getenv("FASTBLAKE_MPI_PIECE_SIZE")) {
    o.piece_size = std::strtoull(piece, nullptr, 10);
  }
  return o;
}

// Without --num-threads, each rank runs as many threads as the CPUs it may run on: mpirun binds
// each rank to a core by default (up to two ranks) or to a socket, and threads past those
// CPUs only take turns on them.
std::size_t rank_threads() {
  return std::min(tools::cpus_allowed(), fastblake::thread_pool::max_threads);
}

// The pool for `threads` threads (0: rank_threads()), made once per count.
fastblake::thread_pool& pool_for(std::uint64_t threads) {
  static std::map<std::uint64_t, std::unique_ptr<fastblake::thread_pool>> pools;
  if (threads == 0) threads = rank_threads();
  auto& pool = pools[threads];
  if (!pool) pool = std::make_unique<fastblake::thread_pool>(threads);
  return *pool;
}

// Waits for a collective without Open MPI's full-speed polling, which would take the cores
// from the ranks still hashing.
void wait_idle(MPI_Request& request) {
  for (;;) {
    int flag = 0;
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    if (flag != 0) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void broadcast(MPI_Comm comm, announcement& a, std::string& context) {
  MPI_Request request;
  MPI_Ibcast(&a, sizeof a, MPI_BYTE, 0, comm, &request);
  wait_idle(request);
  if (a.context_size == 0) return;
  context.resize(a.context_size);
  MPI_Ibcast(context.data(), static_cast<int>(a.context_size), MPI_BYTE, 0, comm, &request);
  wait_idle(request);
}

class mpi_distributor final : public b3sum::distributor {
 public:
  explicit mpi_distributor(MPI_Comm comm) : comm_(comm) {}

  void hash(std::span<const std::string> paths, const b3sum::mode_spec& spec,
            fastblake::thread_pool* pool, fastblake::file_strategy strategy,
            const std::function<void(std::uint64_t, std::uint64_t)>& progress,
            const std::function<void(std::size_t, b3::file_result&&)>& done) override {
    announcement a;
    a.job = 1;
    a.mode = static_cast<std::uint8_t>(spec.mode);
    a.key = spec.key;
    a.threads = pool != nullptr ? pool->size() : 0;
    a.strategy = static_cast<std::uint8_t>(strategy);
    a.context_size = static_cast<std::uint32_t>(spec.context.size());
    std::string context = spec.context;
    broadcast(comm_, a, context);
    const std::vector<std::filesystem::path> files(paths.begin(), paths.end());
    fastblake::mpi::options o = options_from_environment();
    o.pool = pool != nullptr ? pool : &pool_for(0);
    o.strategy = strategy;
    o.progress = progress;
    o.stats = &stats_;
    fastblake::mpi::hash_files(comm_, files, spec.to_mode(), o, done);
  }

  void end(int status) {
    if (const char* show = std::getenv("FASTBLAKE_MPI_STATS");
        show && std::strcmp(show, "1") == 0) {
      std::fprintf(stderr, "b3sum-mpi: %llu items, %llu pieces or files, coordinator %.6f s CPU\n",
                   static_cast<unsigned long long>(stats_.items),
                   static_cast<unsigned long long>(stats_.ranges), stats_.coordinator_seconds);
    }
    announcement a;
    a.status = status;
    std::string none;
    broadcast(comm_, a, none);
  }

 private:
  MPI_Comm comm_;
  fastblake::mpi::statistics stats_;
};

// A rank other than 0: its share of every job, until the end.
int serve(MPI_Comm comm) {
  for (;;) {
    announcement a;
    std::string context;
    broadcast(comm, a, context);
    if (a.job == 0) return a.status;
    b3sum::mode_spec spec;
    spec.mode = static_cast<b3sum::mode_spec::kind>(a.mode);
    spec.key = a.key;
    spec.context = context;
    fastblake::mpi::options o = options_from_environment();
    o.pool = &pool_for(a.threads);
    o.strategy = static_cast<fastblake::file_strategy>(a.strategy);
    fastblake::mpi::hash_files(comm, {}, spec.to_mode(), o, {});
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int status = 0;
  try {
    if (rank == 0) {
      mpi_distributor files_elsewhere(comm);
      status = b3sum::run_distributed(argc, argv, files_elsewhere, b3sum_mpi);
      files_elsewhere.end(status);
    } else {
      status = serve(comm);
    }
  } catch (const std::exception& e) {
    // The system refused threads or memory: this rank cannot go on, nor can the job.
    std::fprintf(stderr, "b3sum-mpi: rank %d: %s\n", rank, e.what());
    MPI_Abort(comm, 1);
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return status;
}
