// The process on POSIX systems (os/process.hpp).
#include "os/process.hpp"

#include <pthread.h>

#if defined(__linux__)
#include <sched.h>
#endif
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif
#if defined(__linux__)
#include <sys/auxv.h>
#endif

namespace fastblake::internal::os {

void at_fork(void (*prepare)(), void (*parent)(), void (*child)()) noexcept {
  pthread_atfork(prepare, parent, child);
}

void run_as_batch_thread() noexcept {
#if defined(__linux__)
  // Same share of the CPU, but a woken worker never preempts the running thread. Without it, a
  // worker woken by join() on a virtual machine whose other vCPUs are halted lands on the
  // joining thread's own CPU and preempts it until the load balancer moves one of them,
  // ~190 us later.
  sched_param param{};
  pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
#endif
}

bool avx512_state_usable(bool enabled_in_xcr0) noexcept {
#if defined(__APPLE__)
  int usable = 0;
  std::size_t size = sizeof usable;
  if (sysctlbyname("hw.optional.avx512f", &usable, &size, nullptr, 0) == 0) return usable != 0;
#endif
  return enabled_in_xcr0;
}

bool neon_usable() noexcept { return true; }

unsigned long hardware_capabilities() noexcept {
#if defined(__linux__)
  return getauxval(AT_HWCAP);
#else
  return 0;
#endif
}

}  // namespace fastblake::internal::os
