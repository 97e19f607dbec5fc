// blake2::hasher: one of the four states, chosen at run time.
#include <fastblake/blake2.hpp>

#include <stdexcept>

namespace fastblake::blake2 {
namespace {

constexpr std::string_view names[] = {"blake2b", "blake2s", "blake2bp", "blake2sp"};

template <class Params>
Params with(std::size_t hash_length, std::span<const std::byte> key) {
  Params p;
  if (hash_length != 0) p.hash_length(hash_length);
  p.key(key);
  return p;
}

}  // namespace

std::string_view algorithm_name(algorithm a) noexcept {
  const auto i = static_cast<std::size_t>(a);
  return i < std::size(names) ? names[i] : std::string_view();
}

std::optional<algorithm> algorithm_from_name(std::string_view name) noexcept {
  for (std::size_t i = 0; i < std::size(names); ++i) {
    if (names[i] == name) return static_cast<algorithm>(i);
  }
  return std::nullopt;
}

std::size_t max_hash_length(algorithm a) noexcept {
  return a == algorithm::blake2s || a == algorithm::blake2sp ? traits<family::s>::max_hash_length
                                                             : traits<family::b>::max_hash_length;
}

hasher::hasher(algorithm a, std::size_t hash_length, std::span<const std::byte> key) {
  switch (a) {
    case algorithm::blake2b:
      state_ = with<params<family::b>>(hash_length, key).to_state();
      return;
    case algorithm::blake2s:
      state_ = with<params<family::s>>(hash_length, key).to_state();
      return;
    case algorithm::blake2bp:
      state_ = with<parallel_params<family::b>>(hash_length, key).to_state();
      return;
    case algorithm::blake2sp:
      state_ = with<parallel_params<family::s>>(hash_length, key).to_state();
      return;
  }
  throw std::invalid_argument("blake2: unknown algorithm " + std::to_string(static_cast<int>(a)));
}

std::size_t hasher::hash_length() const noexcept {
  return std::visit([](const auto& s) { return s.hash_length(); }, state_);
}

std::uint64_t hasher::count() const noexcept {
  return std::visit([](const auto& s) { return s.count(); }, state_);
}

hasher& hasher::update(std::span<const std::byte> input) noexcept {
  std::visit([&](auto& s) { s.update(input); }, state_);
  return *this;
}

hasher& hasher::update(std::span<const std::byte> input, thread_pool& pool) noexcept {
  std::visit(
      [&](auto& s) {
        if constexpr (requires { s.update(input, pool); }) {
          s.update(input, pool);
        } else {
          s.update(input);
        }
      },
      state_);
  return *this;
}

any_digest hasher::finalize() const noexcept {
  return std::visit(
      [](const auto& s) {
        const auto d = s.finalize();
        return any_digest(std::span<const std::uint8_t>(d.data(), d.size()));
      },
      state_);
}

}  // namespace fastblake::blake2
