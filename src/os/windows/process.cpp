// The process on Windows (os/process.hpp): no fork, the scheduler's defaults.
#include "os/process.hpp"

#include <windows.h>

namespace fastblake::internal::os {

void at_fork(void (*)(), void (*)(), void (*)()) noexcept {}

void run_as_batch_thread() noexcept {}

bool avx512_state_usable(bool enabled_in_xcr0) noexcept { return enabled_in_xcr0; }

bool neon_usable() noexcept {
#if defined(_M_ARM64) || defined(__aarch64__)
  return ::IsProcessorFeaturePresent(PF_ARM_NEON_INSTRUCTIONS_AVAILABLE) != 0;
#else
  return false;
#endif
}

unsigned long hardware_capabilities() noexcept { return 0; }

}  // namespace fastblake::internal::os
