// Mapped views on Windows (os/file.hpp): a file mapping object's view, its fault guard, and
// read-ahead.
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
    const bool mended = ::UnmapViewOfFile(base) &&
                        ::VirtualAlloc(base, size, MEM_RESERVE | MEM_COMMIT, PAGE_READONLY) == base;
    slot->state.store(mended ? guard_slot::zeros : guard_slot::lost);
  }
  while ((state = slot->state.load()) == guard_slot::mending) ::SwitchToThread();
  return state == guard_slot::zeros ? EXCEPTION_CONTINUE_EXECUTION : EXCEPTION_CONTINUE_SEARCH;
}

std::once_flag handler_installed;
bool handler_ready = false;

}  // namespace

mapped_file::~mapped_file() {
  if (data_ == nullptr) return;
  // The view's base: data_ is where the view starts (from_ is a multiple of the granularity).
  void* base = const_cast<std::byte*>(data_);
  const bool zeros = guard_ != nullptr && guard_->state.load() == guard_slot::zeros;
  if (guard_ != nullptr) free_guard_slot(*guard_);
  if (zeros) {
    ::VirtualFree(base, 0, MEM_RELEASE);
  } else {
    ::UnmapViewOfFile(base);
  }
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
  void* view = ::MapViewOfFile(mapping, FILE_MAP_READ, static_cast<DWORD>(from >> 32),
                               static_cast<DWORD>(from), static_cast<SIZE_T>(size));
  ::CloseHandle(mapping);  // the view keeps the object
  if (view == nullptr) return std::make_error_code(std::errc::no_such_device);
  fd_ = fd;
  data_ = static_cast<const std::byte*>(view);
  from_ = from;
  size_ = size;
  requested_ = from;
  const auto begin = reinterpret_cast<std::uintptr_t>(view);
  guard_ = take_guard_slot(begin, begin + static_cast<std::uintptr_t>(size));
  if (guard_ == nullptr) return std::make_error_code(std::errc::no_such_device);
  return {};
}

bool mapped_file::faulted() const noexcept {
  return guard_ != nullptr && guard_->state.load() != guard_slot::mapped;
}

// Windows reads mapped files ahead by itself, and more so as faults come in order.
void mapped_file::read_sequentially() noexcept {}

// PrefetchVirtualMemory (Windows 8 and later), each part once; pages already in the cache cost
// it nothing but a lookup.
void mapped_file::read_ahead(std::uint64_t from, std::uint64_t to) noexcept {
  from = std::max(from, requested_);
  to = std::min(to, from_ + size_);
  if (from >= to) return;
  WIN32_MEMORY_RANGE_ENTRY range;
  range.VirtualAddress = const_cast<std::byte*>(data_ + (from - from_));
  range.NumberOfBytes = static_cast<SIZE_T>(to - from);
  ::PrefetchVirtualMemory(::GetCurrentProcess(), 1, &range, 0);
  requested_ = to;
}

// Unlocking pages that were never locked takes them out of the working set (VirtualUnlock's
// documented effect), as MADV_DONTNEED does on Linux; they stay in the cache.
void mapped_file::release(const std::byte* from, std::size_t size) noexcept {
  if (faulted()) return;
  ::VirtualUnlock(const_cast<std::byte*>(from), size);
}

}  // namespace fastblake::internal::os
