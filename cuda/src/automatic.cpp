// The CUDA backend as the CPU library's accelerator plug-in (fastblake/accelerator.hpp):
// registered when this object is linked in, it hashes the subtrees the CPU library's offload
// policy hands it on device 0, through one shared context.
#include <cstring>
#include <new>
#include <system_error>

#include <fastblake/accelerator.hpp>

#include "driver.hpp"

namespace fastblake::cuda {

// The CPU library calls these under its offload lock, one at a time, from any thread.
struct detail::automatic_use {
  // Made on first use and never destroyed: at exit the CUDA runtime may already be unloaded.
  static context*& shared() noexcept {
    static context* c = nullptr;
    return c;
  }

  // Runs f, turning what it throws into `error`.
  template <class F>
  static bool reporting(std::error_code& error, F&& f) noexcept {
    try {
      return f();
    } catch (const std::system_error& e) {
      error = e.code();
    } catch (const std::bad_alloc&) {
      error = std::make_error_code(std::errc::not_enough_memory);
    } catch (...) {
      error = std::make_error_code(std::errc::io_error);
    }
    return false;
  }

  static bool prepare(std::error_code& error) noexcept {
    if (device_count() == 0) {
      error.assign(static_cast<int>(cudaErrorNoDevice), cuda_category());
      return false;
    }
    return reporting(error, [] {
      if (shared() == nullptr) shared() = new context(0);
      return true;
    });
  }

  static bool children(std::span<const std::byte> input, std::uint64_t chunk_counter,
                       const hazmat::mode& m, std::span<std::uint8_t, 64> out,
                       std::error_code& error) noexcept {
    return reporting(error, [&] {
      context::impl& c = *shared()->impl_;
      const device_scope scope(c.device);
      const auto [left, right] = c.host_children(input, chunk_counter, m);
      std::memcpy(out.data(), left.data(), 32);
      std::memcpy(out.data() + 32, right.data(), 32);
      return true;
    });
  }
};

namespace {

constexpr accelerator::plugin automatic_offload{
    .name = "cuda",
    .prepare = detail::automatic_use::prepare,
    .subtree_children = detail::automatic_use::children};

}  // namespace

namespace detail {

// Registers the backend with the CPU library when this object is linked in. The fastblake::cuda
// target passes --undefined for this symbol, so that a program that links the library keeps
// this object even if it calls nothing in it.
extern const int automatic_registration;
const int automatic_registration = accelerator::register_plugin(&automatic_offload) ? 1 : 0;

}  // namespace detail

}  // namespace fastblake::cuda
