// fastblake::mpi's coordinator (coordinator.hpp).
#include "coordinator.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "worker.hpp"

namespace fastblake::mpi::detail {
namespace {

// Files up to this size (and up to the piece size) are hashed many to an item, each on one
// thread of the worker's pool; larger ones one at a time, on all of them.
constexpr std::uint64_t small_file_size = 1u << 20;
constexpr std::uint64_t batch_bytes = 32u << 20;
constexpr std::size_t batch_files = 256;

// The pieces of a file of `size` bytes on `ranks` ranks. Pieces are handed out as ranks ask,
// so the ranks finish within about one piece of each other: at least 16 pieces a rank keep
// that tail under a sixteenth of the time, and pieces of 16 MiB or more keep the cost of
// asking (a round trip, an open) small against reading and hashing one.
std::uint64_t piece_size_of(const options& o, std::uint64_t size, int ranks) {
  if (o.piece_size != 0)
    return std::bit_floor(std::max<std::uint64_t>(o.piece_size, b3::chunk_size));
  constexpr std::uint64_t smallest = 16u << 20, largest = 256u << 20;
  const std::uint64_t share = size / (16 * static_cast<std::uint64_t>(ranks));
  return std::clamp(std::bit_floor(std::max<std::uint64_t>(share, 1)), smallest, largest);
}

struct planned_file {
  std::uint64_t size = 0;
  std::uint64_t piece_size = 0;
  bool local = false;  // hashed on the root by update_from_file
  std::uint64_t pieces_left = 0;
  std::vector<piece> pieces;
  std::optional<b3::output_reader> output;
  std::error_code error;
  bool done = false;
};

class coordinator {
 public:
  coordinator(const private_comm& comm, std::span<const std::filesystem::path> paths,
              const hazmat::mode& m, const options& o)
      : comm_(comm), paths_(paths), mode_(m), options_(o), files_(paths.size()) {
    plan();
  }

  void run(const result_callback& done) {
    std::thread local([this] { local_worker(); });
    std::exception_ptr failure;
    try {
      coordinate(done);
    } catch (...) {
      failure = std::current_exception();
    }
    if (failure) {
      // Stop handing out work, and let every worker finish what it holds.
      {
        const std::lock_guard lock(mutex_);
        cancelled_ = true;
      }
      try {
        while (workers_stopped_ < comm_.size() - 1) serve_one_request(true);
      } catch (...) {
      }
    }
    local.join();
    if (failure) std::rethrow_exception(failure);
  }

 private:
  void plan() {
    const std::uint64_t small =
        std::min(small_file_size, piece_size_of(options_, small_file_size, comm_.size()));
    std::vector<range> batch;
    std::uint64_t batch_size = 0;
    const auto flush = [&] {
      if (!batch.empty()) items_.push_back(std::move(batch));
      batch.clear();
      batch_size = 0;
    };
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      planned_file& f = files_[i];
      struct stat info;
      const std::string path = paths_[i].string();
      if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_size == 0) {
        // The root alone, as update_from_file does it: its errors and special files.
        f.local = true;
        if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
          total_ += static_cast<std::uint64_t>(info.st_size);
        }
        local_items_.push_back(i);
        continue;
      }
      f.size = static_cast<std::uint64_t>(info.st_size);
      f.piece_size = piece_size_of(options_, f.size, comm_.size());
      const std::uint64_t piece_size = f.piece_size;
      total_ += f.size;
      const auto index = static_cast<std::uint32_t>(i);
      if (f.size <= small) {
        if (batch.size() == batch_files || batch_size + f.size > batch_bytes) flush();
        batch.push_back({index, f.size, 0, f.size, path});
        batch_size += f.size;
      } else if (f.size <= piece_size) {
        flush();
        f.pieces_left = 1;
        items_.push_back({{index, f.size, 0, f.size, path}});
      } else {
        flush();
        f.pieces_left = (f.size + piece_size - 1) / piece_size;
        for (std::uint64_t at = 0; at < f.size; at += piece_size) {
          items_.push_back({{index, f.size, at, std::min(piece_size, f.size - at), path}});
        }
      }
      if (f.size <= small) f.pieces_left = 1;
    }
    flush();
  }

  // The next item for a worker; empty when there is none. Holds mutex_.
  std::optional<std::vector<range>> next_item() {
    while (!cancelled_ && next_item_ < items_.size()) {
      std::vector<range>& item = items_[next_item_++];
      // Pieces of a file that already failed are not worth reading.
      std::erase_if(item, [&](const range& r) { return files_[r.file].error.operator bool(); });
      if (item.empty()) continue;
      if (options_.stats != nullptr) {
        ++options_.stats->items;
        options_.stats->ranges += item.size();
      }
      return std::move(item);
    }
    return std::nullopt;
  }

  static std::vector<std::byte> item_message(const std::vector<range>& item) {
    writer w;
    w.put(static_cast<std::uint32_t>(item.size()));
    for (const range& r : item) put_range(w, r);
    return std::move(w.bytes());
  }

  // The root's own worker: the local items first, then its share of the rest.
  void local_worker() {
    open_file opened;
    file_options file;
    file.pool = options_.pool;
    file.strategy = options_.strategy;
    for (;;) {
      std::optional<std::size_t> local;
      std::optional<std::vector<range>> item;
      {
        const std::lock_guard lock(mutex_);
        if (!cancelled_ && !local_items_.empty()) {
          local = local_items_.front();
          local_items_.pop_front();
        } else {
          item = next_item();
        }
      }
      if (local) {
        b3::hasher h(mode_);
        std::error_code ec;
        b3::update_from_file(h, paths_[*local], file, ec);
        const std::lock_guard lock(mutex_);
        planned_file& f = files_[*local];
        if (ec) {
          f.error = ec;
        } else {
          f.output = h.finalize_xof();
          done_bytes_ += h.count();
        }
        f.done = true;
      } else if (item) {
        std::vector<std::byte> results =
            work(item_message(*item), mode_, options_, pool_of(options_), opened);
        const std::lock_guard lock(mutex_);
        local_results_.push_back(std::move(results));
      } else {
        const std::lock_guard lock(mutex_);
        local_finished_ = true;
        changed_.notify_all();
        return;
      }
      changed_.notify_all();
    }
  }

  // Takes a worker's results in. Holds mutex_.
  void take_results(std::span<const std::byte> message) {
    if (message.empty()) return;
    reader rd(message);
    const auto count = rd.get<std::uint32_t>();
    for (std::uint32_t k = 0; k < count; ++k) {
      const auto index = rd.get<std::uint32_t>();
      const auto offset = rd.get<std::uint64_t>();
      const bool failed = rd.get<std::uint8_t>() != 0;
      planned_file& f = files_.at(index);
      const std::uint64_t piece_size = f.piece_size;
      const std::uint64_t length =
          f.size <= piece_size ? f.size : std::min(piece_size, f.size - offset);
      done_bytes_ += length;
      if (failed) {
        const std::error_code ec = get_error(rd);
        if (!f.error) f.error = ec;
        f.done = true;
        continue;
      }
      if (f.size <= b3::chunk_size) {
        const auto bytes = rd.take(static_cast<std::size_t>(f.size));
        f.output = b3::hasher(mode_).update(bytes).finalize_xof();
      } else if (f.size <= piece_size) {
        const std::uint64_t left = hazmat::left_subtree_len(f.size);
        piece children[2] = {{0, left, {}}, {left, f.size - left, {}}};
        for (piece& p : children) std::memcpy(p.cv.data(), rd.take(p.cv.size()).data(), 32);
        f.output = merge_root(children, f.size, mode_);
      } else {
        piece p{offset, length, {}};
        std::memcpy(p.cv.data(), rd.take(p.cv.size()).data(), p.cv.size());
        if (f.error) continue;
        f.pieces.push_back(p);
        if (--f.pieces_left > 0) continue;
        std::sort(f.pieces.begin(), f.pieces.end(),
                  [](const piece& a, const piece& b) { return a.offset < b.offset; });
        f.output = merge_root(f.pieces, f.size, mode_);
        f.pieces = {};
      }
      f.done = true;
    }
  }

  // Answers one worker's request with its next item, or with none. Returns false if no
  // request was waiting.
  bool serve_one_request(bool block) {
    if (comm_.size() == 1) return false;
    MPI_Message message;
    MPI_Status status;
    int flag = 0;
    if (block) {
      wait_politely([&] {
        MPI_Improbe(MPI_ANY_SOURCE, request_tag, comm_.get(), &flag, &message, &status);
        return flag != 0;
      });
    } else {
      MPI_Improbe(MPI_ANY_SOURCE, request_tag, comm_.get(), &flag, &message, &status);
      if (flag == 0) return false;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<std::byte> results(static_cast<std::size_t>(count));
    MPI_Mrecv(results.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    std::vector<std::byte> reply;
    {
      const std::lock_guard lock(mutex_);
      take_results(results);
      if (auto item = next_item()) {
        reply = item_message(*item);
      } else {
        ++workers_stopped_;
      }
    }
    send(comm_.get(), status.MPI_SOURCE, reply_tag, reply);
    return true;
  }

  void coordinate(const result_callback& done) {
    const double cpu_start = thread_cpu_seconds();
    struct account {
      statistics* stats;
      double start;
      ~account() {
        if (stats != nullptr) stats->coordinator_seconds += thread_cpu_seconds() - start;
      }
    } const accounted{options_.stats, cpu_start};
    std::size_t delivered = 0;
    std::uint64_t reported = ~std::uint64_t{0};
    auto pause = std::chrono::microseconds(0);
    for (;;) {
      bool busy = serve_one_request(false);
      std::vector<std::pair<std::size_t, b3::file_result>> ready;
      bool finished = false;
      std::uint64_t done_bytes = 0;
      {
        std::unique_lock lock(mutex_);
        while (!local_results_.empty()) {
          take_results(local_results_.front());
          local_results_.pop_front();
          busy = true;
        }
        while (delivered < files_.size() && files_[delivered].done) {
          planned_file& f = files_[delivered];
          ready.emplace_back(
              delivered,
              b3::file_result{f.output ? *f.output : b3::hasher().finalize_xof(), f.error});
          f.output.reset();
          ++delivered;
        }
        finished =
            delivered == files_.size() && local_finished_ && workers_stopped_ == comm_.size() - 1;
        done_bytes = done_bytes_;
        if (!busy && ready.empty() && !finished) {
          if (comm_.size() == 1) {
            changed_.wait(lock);
          } else {
            pause = std::min(std::max(pause * 2, std::chrono::microseconds(5)),
                             std::chrono::microseconds(250));
            changed_.wait_for(lock, pause);
          }
        } else {
          pause = std::chrono::microseconds(0);
        }
      }
      if (options_.progress && done_bytes != reported) {
        reported = done_bytes;
        options_.progress(done_bytes, total_);
      }
      for (auto& [index, result] : ready) {
        if (done) done(index, std::move(result));
      }
      if (finished) return;
    }
  }

  const private_comm& comm_;
  std::span<const std::filesystem::path> paths_;
  const hazmat::mode& mode_;
  const options& options_;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<planned_file> files_;
  std::vector<std::vector<range>> items_;
  std::size_t next_item_ = 0;
  std::deque<std::size_t> local_items_;
  std::deque<std::vector<std::byte>> local_results_;
  bool local_finished_ = false;
  bool cancelled_ = false;
  int workers_stopped_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t done_bytes_ = 0;
};

}  // namespace

void coordinate(const private_comm& comm, std::span<const std::filesystem::path> paths,
                const hazmat::mode& m, const options& o, const result_callback& done) {
  coordinator(comm, paths, m, o).run(done);
}

}  // namespace fastblake::mpi::detail
