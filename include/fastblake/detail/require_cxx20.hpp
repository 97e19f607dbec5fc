// Included first by every C++ header of the library: below C++20 they would fail deep inside
// <span> and <concepts>, in errors that never name the cause. (The C interface,
// <fastblake/fastblake.h>, needs no more than C99 or C++98.)
#pragma once

#if defined(__cplusplus) && (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 202002L
#error "fastblake's C++ API needs C++20 (-std=c++20); C++ below it can use <fastblake/fastblake.h>"
// Stops the compiler here (a missing header is fatal in GCC, Clang and MSVC), so that the
// message above is the only one instead of the first of hundreds.
#include <fastblake/stopped-here-see-the-error-above>
#endif
