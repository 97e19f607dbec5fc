// The BLAKE2 file API over the family-independent file code (engine.hpp).
#include <fastblake/file.hpp>

#include <string>
#include <vector>

#include "file/engine.hpp"

namespace fastblake::blake2 {
namespace {

constexpr std::string_view family_prefix = "fastblake::blake2";

// BLAKE2b and BLAKE2s are one chain of blocks: one thread, whatever the strategy. BLAKE2bp and
// BLAKE2sp split their leaves between threads (parallel_state decides when that gains), in
// mapped windows and read buffers alike; hasher is whichever of the four it holds.
template <class State>
class state_sink final : public internal::file_sink {
 public:
  explicit state_sink(State& s) noexcept : s_(s) {}
  void update(std::span<const std::byte> bytes) override { s_.update(bytes); }
  void update_parallel(std::span<const std::byte> bytes, thread_pool* pool, bool) override {
    if constexpr (requires { s_.update(bytes, *pool); }) {
      if (pool != nullptr) {
        s_.update(bytes, *pool);
        return;
      }
    }
    s_.update(bytes);
  }
  bool splits_reads() const noexcept override {
    if constexpr (std::is_same_v<State, hasher>) {
      return s_.algo() == algorithm::blake2bp || s_.algo() == algorithm::blake2sp;
    } else {
      return requires(std::span<const std::byte> b, thread_pool & p) { s_.update(b, p); };
    }
  }

 private:
  State& s_;
};

template <class State>
std::error_code from_path(State& s, const std::filesystem::path& path,
                          const file_options& options) {
  return internal::hash_into_copy<state_sink<State>>(
      s, [&](internal::file_sink& sink) { return internal::hash_path(sink, path, options); });
}

template <class State>
std::error_code from_fd(State& s, int fd, const file_options& options) {
  return internal::hash_into_copy<state_sink<State>>(s, [&](internal::file_sink& sink) {
    return internal::hash_fd(sink, fd, options, true, false);
  });
}

}  // namespace

template <class State>
void update_from_file(State& s, const std::filesystem::path& path, const file_options& options,
                      std::error_code& ec) noexcept {
  ec = from_path(s, path, options);
}

template <class State>
void update_from_file(State& s, const std::filesystem::path& path, const file_options& options) {
  if (const std::error_code ec = from_path(s, path, options)) {
    internal::throw_file_error(ec, family_prefix, internal::quoted(path));
  }
}

template <class State>
void update_from_fd(State& s, int fd, const file_options& options, std::error_code& ec) noexcept {
  ec = from_fd(s, fd, options);
}

template <class State>
void update_from_fd(State& s, int fd, const file_options& options) {
  if (const std::error_code ec = from_fd(s, fd, options)) {
    internal::throw_file_error(ec, family_prefix, internal::descriptor_name(fd));
  }
}

void update_from_file(hasher& s, const std::filesystem::path& path, const file_options& options,
                      std::error_code& ec) noexcept {
  update_from_file<hasher>(s, path, options, ec);
}
void update_from_file(hasher& s, const std::filesystem::path& path, const file_options& options) {
  update_from_file<hasher>(s, path, options);
}
void update_from_fd(hasher& s, int fd, const file_options& options, std::error_code& ec) noexcept {
  update_from_fd<hasher>(s, fd, options, ec);
}
void update_from_fd(hasher& s, int fd, const file_options& options) {
  update_from_fd<hasher>(s, fd, options);
}

// A fresh state of its own: nothing to keep on failure, so no copy to hash into.
any_digest hash_file(const std::filesystem::path& path, const hasher& prototype,
                     const file_options& options, std::error_code& ec) noexcept {
  hasher h = prototype;
  state_sink<hasher> sink(h);
  ec = internal::hash_path(sink, path, options);
  return ec ? any_digest() : h.finalize();
}

any_digest hash_file(const std::filesystem::path& path, const hasher& prototype,
                     const file_options& options) {
  std::error_code ec;
  const any_digest d = hash_file(path, prototype, options, ec);
  if (ec) internal::throw_file_error(ec, family_prefix, internal::quoted(path));
  return d;
}

std::vector<file_result> hash_files(std::span<const std::filesystem::path> paths,
                                    const hasher& prototype, const file_options& options) {
  std::vector<file_result> results(paths.size());
  std::vector<std::error_code> errors(paths.size());
  internal::hash_files(paths, options, errors,
                       [&](std::size_t i, int fd, const internal::os::file_status& info,
                           const file_options& per_file, bool threads) {
                         hasher h = prototype;
                         state_sink<hasher> sink(h);
                         const std::error_code ec =
                             internal::hash_fd(sink, fd, per_file, threads, true, &info);
                         if (!ec) results[i].digest = h.finalize();
                         return ec;
                       });
  for (std::size_t i = 0; i < paths.size(); ++i) results[i].error = errors[i];
  return results;
}

#define FASTBLAKE_INSTANTIATE_FILE_API(State)                                                      \
  template void update_from_file<State>(State&, const std::filesystem::path&,                      \
                                        const file_options&);                                      \
  template void update_from_file<State>(State&, const std::filesystem::path&, const file_options&, \
                                        std::error_code&) noexcept;                                \
  template void update_from_fd<State>(State&, int, const file_options&);                           \
  template void update_from_fd<State>(State&, int, const file_options&, std::error_code&) noexcept;
FASTBLAKE_INSTANTIATE_FILE_API(state<family::b>)
FASTBLAKE_INSTANTIATE_FILE_API(state<family::s>)
FASTBLAKE_INSTANTIATE_FILE_API(parallel_state<family::b>)
FASTBLAKE_INSTANTIATE_FILE_API(parallel_state<family::s>)
#undef FASTBLAKE_INSTANTIATE_FILE_API

}  // namespace fastblake::blake2
