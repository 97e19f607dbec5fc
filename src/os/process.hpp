// What the thread pool, the process-wide locks and CPU detection ask of the operating system,
// one implementation per OS family (os/posix/process.cpp, os/windows/process.cpp).
#pragma once

namespace fastblake::internal::os {

/// Calls prepare before every fork() and parent and child after it, on their sides (as
/// pthread_atfork); nothing where there is no fork (Windows).
void at_fork(void (*prepare)(), void (*parent)(), void (*child)()) noexcept;

/// For a pool's worker, at its start: a woken worker should never preempt the thread that woke
/// it (Linux's SCHED_BATCH; docs/benchmarks.md, "Threads"); elsewhere nothing.
void run_as_batch_thread() noexcept;

/// Whether this process may use AVX-512's registers, given whether XCR0 says their state is on.
/// macOS turns that state on only at a thread's first AVX-512 instruction, so XCR0 says no
/// until then; the kernel says whether it will (sysctl hw.optional.avx512f).
bool avx512_state_usable(bool enabled_in_xcr0) noexcept;

/// Whether NEON (Advanced SIMD) may be used on an AArch64 CPU: always on Linux and macOS, where
/// the architecture has it; Windows says so through IsProcessorFeaturePresent.
bool neon_usable() noexcept;

/// Linux's AT_HWCAP (getauxval), the CPU features the kernel supports; 0 elsewhere.
unsigned long hardware_capabilities() noexcept;

}  // namespace fastblake::internal::os
