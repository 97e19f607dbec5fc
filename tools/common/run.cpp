// The end of a run whose C++ runtime cannot allocate even an exception (run.hpp).
#include "run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include "system.hpp"

namespace tools {
namespace {

// The message, made when the handler is installed: nothing is allocated when it is written.
char out_of_memory_message[256];
std::size_t out_of_memory_message_len = 0;
std::terminate_handler previous_handler = nullptr;

// A throw whose exception cannot be allocated (malloc fails, and the runtime's emergency pool
// was never made: memory ran out before main) ends in std::terminate with no exception in
// flight; so does a std::bad_alloc thrown through a noexcept function. Both are memory running
// out. Anything else is left to the handler before.
[[noreturn]] void on_terminate() noexcept {
  const std::exception_ptr current = std::current_exception();
  bool out_of_memory = current == nullptr;
  if (!out_of_memory) {
    try {
      std::rethrow_exception(current);
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    } catch (...) {
    }
  }
  if (out_of_memory) {
    (void)write_all(standard_error,
                    std::string_view(out_of_memory_message, out_of_memory_message_len));
    std::_Exit(1);
  }
  if (previous_handler != nullptr) previous_handler();
  std::abort();
}

}  // namespace

void end_quietly_when_memory_runs_out(std::string_view program, const char* words) noexcept {
  const int n = std::snprintf(out_of_memory_message, sizeof out_of_memory_message, "%.*s%s\n",
                              static_cast<int>(std::min<std::size_t>(program.size(), 1024)),
                              program.data(), words);
  out_of_memory_message_len =
      n < 0 ? 0 : std::min(static_cast<std::size_t>(n), sizeof out_of_memory_message - 1);
  previous_handler = std::set_terminate(on_terminate);
}

}  // namespace tools
