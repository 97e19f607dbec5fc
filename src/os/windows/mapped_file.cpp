// Mapped views on Windows (os/file.hpp): a file mapping object, a view of it for each window
// with its fault guard, and read-ahead.
//
// Windows refuses to cut a file while a view of it is mapped (ERROR_USER_MAPPED_FILE), so a
// local file cannot shrink under the view; a fault comes from a file on a network share cut by
// another machine, a device's read error, or, under Wine, a cut made by a Unix process (which
// Wine reports as an access violation, where Windows raises EXCEPTION_IN_PAGE_ERROR). The guard,
// a vectored exception handler, replaces the whole view by zeros and retries the load, as the
// SIGBUS guard does on POSIX: the view is unmapped and zero pages reserved at its address; a
// thread that loads from it in between faults too and waits for the zeros.
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>

#include <fastblake/file.hpp>

#include "os/file.hpp"
#include "os/guard_table.hpp"

namespace fastblake::internal::os {
namespace {

// Mending a view leaves its addresses free between the unmapping and the zeros: a view mapped
// meanwhile could land there, and the zeros could not. Views of ours are made under this lock,
// shared, and mended under it alone (1,000 threads mapping their windows while others' were
// mended lost that race in every run under Wine).
SRWLOCK views_lock = SRWLOCK_INIT;

LONG CALLBACK on_fault(EXCEPTION_POINTERS* exception) {
  const EXCEPTION_RECORD& record = *exception->ExceptionRecord;
  // A load (ExceptionInformation[0] is 0 for reads) from a view of ours: anything else, a store
  // to a read-only view included, goes on to the other handlers.
  if ((record.ExceptionCode != EXCEPTION_IN_PAGE_ERROR &&
       record.ExceptionCode != EXCEPTION_ACCESS_VIOLATION) ||
      record.NumberParameters < 2 || record.ExceptionInformation[0] != 0) {
    return EXCEPTION_CONTINUE_SEARCH;
  }
  guard_slot* slot = guard_slot_at(record.ExceptionInformation[1]);
  if (slot == nullptr) return EXCEPTION_CONTINUE_SEARCH;
  int state = guard_slot::mapped;
  if (slot->state.compare_exchange_strong(state, guard_slot::mending)) {
    void* base = reinterpret_cast<void*>(slot->begin.load());
    const std::size_t size = slot->end.load() - slot->begin.load();
    ::AcquireSRWLockExclusive(&views_lock);
    const bool mended = ::UnmapViewOfFile(base) &&
                        ::VirtualAlloc(base, size, MEM_RESERVE | MEM_COMMIT, PAGE_READONLY) == base;
    ::ReleaseSRWLockExclusive(&views_lock);
    slot->state.store(mended ? guard_slot::zeros : guard_slot::lost);
  }
  while ((state = slot->state.load()) == guard_slot::mending) ::SwitchToThread();
  return state == guard_slot::zeros ? EXCEPTION_CONTINUE_EXECUTION : EXCEPTION_CONTINUE_SEARCH;
}

std::once_flag handler_installed;
bool handler_ready = false;

}  // namespace

mapped_file::~mapped_file() {
  if (view_size_ != 0) release(data_, 0);
  if (mapping_ != nullptr) ::CloseHandle(mapping_);
}

std::error_code mapped_file::map(int fd, std::uint64_t from, std::uint64_t size) noexcept {
  if (size > std::numeric_limits<std::size_t>::max()) {
    return std::make_error_code(std::errc::value_too_large);
  }
  std::call_once(handler_installed,
                 [] { handler_ready = ::AddVectoredExceptionHandler(1, on_fault) != nullptr; });
  // Without the guard a fault would end the process: read instead.
  if (!handler_ready) return std::make_error_code(std::errc::no_such_device);
  const auto file = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  // A mapping object of the file's size now; one that cannot be made (a file system or device
  // that cannot map, no memory) is read instead, which reports its own errors.
  const HANDLE mapping = ::CreateFileMappingW(file, nullptr, PAGE_READONLY, 0, 0, nullptr);
  if (mapping == nullptr) {
    // An empty file cannot be mapped: it was not empty when hashing began (the caller maps only
    // what it saw), so it was cut.
    if (::GetLastError() == ERROR_FILE_INVALID) return make_error_code(file_errc::truncated);
    return std::make_error_code(std::errc::no_such_device);
  }
  // The object fixes the file's size while it lives: a cut before it was made shows here.
  LARGE_INTEGER now{};
  if (::GetFileSizeEx(file, &now) && static_cast<std::uint64_t>(now.QuadPart) < from + size) {
    ::CloseHandle(mapping);
    return make_error_code(file_errc::truncated);
  }
  fd_ = fd;
  mapping_ = mapping;
  from_ = from;
  size_ = size;
  requested_ = from;
  return {};
}

const std::byte* mapped_file::window(std::uint64_t at, std::uint64_t size,
                                     std::uint64_t reach) noexcept {
  if (view_size_ != 0) release(data_, 0);
  const std::uint64_t view_from = at / mapping_alignment() * mapping_alignment();
  const std::uint64_t view_end = std::min(std::max(reach, at + size), from_ + size_);
  ::AcquireSRWLockShared(&views_lock);
  void* view =
      ::MapViewOfFile(mapping_, FILE_MAP_READ, static_cast<DWORD>(view_from >> 32),
                      static_cast<DWORD>(view_from), static_cast<SIZE_T>(view_end - view_from));
  ::ReleaseSRWLockShared(&views_lock);
  if (view == nullptr) return nullptr;
  const auto begin = reinterpret_cast<std::uintptr_t>(view);
  guard_ = take_guard_slot(begin, begin + static_cast<std::uintptr_t>(view_end - view_from));
  if (guard_ == nullptr) {
    ::UnmapViewOfFile(view);
    return nullptr;
  }
  data_ = static_cast<const std::byte*>(view);
  view_from_ = view_from;
  view_size_ = view_end - view_from;
  read_ahead(at, view_end);
  return data_ + (at - view_from);
}

bool mapped_file::faulted() const noexcept {
  return faulted_ || (guard_ != nullptr && guard_->state.load() != guard_slot::mapped);
}

// Windows reads mapped files ahead by itself, and more so as faults come in order.
void mapped_file::read_sequentially() noexcept {}

// PrefetchVirtualMemory (Windows 8 and later), each part once, as far as the view goes; pages
// already in the cache cost it nothing but a lookup.
void mapped_file::read_ahead(std::uint64_t from, std::uint64_t to) noexcept {
  from = std::max({from, requested_, view_from_});
  to = std::min(to, view_from_ + view_size_);
  if (from >= to) return;
  WIN32_MEMORY_RANGE_ENTRY range;
  range.VirtualAddress = const_cast<std::byte*>(data_ + (from - view_from_));
  range.NumberOfBytes = static_cast<SIZE_T>(to - from);
  ::PrefetchVirtualMemory(::GetCurrentProcess(), 1, &range, 0);
  requested_ = to;
}

// The whole view goes, whatever part was named: one window at a time.
void mapped_file::release(const std::byte*, std::size_t) noexcept {
  if (view_size_ == 0) return;
  void* base = const_cast<std::byte*>(data_);
  const bool zeros = guard_->state.load() == guard_slot::zeros;
  faulted_ = faulted_ || guard_->state.load() != guard_slot::mapped;
  free_guard_slot(*guard_);
  guard_ = nullptr;
  if (zeros) {
    ::VirtualFree(base, 0, MEM_RELEASE);
  } else {
    ::UnmapViewOfFile(base);
  }
  data_ = nullptr;
  view_size_ = 0;
}

}  // namespace fastblake::internal::os
