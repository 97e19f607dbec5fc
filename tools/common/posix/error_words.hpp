// glibc's words for Linux's errno values (error_words.cpp).
#pragma once

namespace tools {

/// glibc's strerror text for a Linux errno value; nullptr for a value glibc has no words for.
const char* glibc_error_words(int error) noexcept;

}  // namespace tools
