// Build configuration shared by every public header: version and symbol export.
#pragma once

// The one place the version is stated: CMakeLists.txt reads these three lines.
#define FASTBLAKE_VERSION_MAJOR 0
#define FASTBLAKE_VERSION_MINOR 1
#define FASTBLAKE_VERSION_PATCH 0
#define FASTBLAKE_VERSION_TEXT_(n) #n
#define FASTBLAKE_VERSION_TEXT(n) FASTBLAKE_VERSION_TEXT_(n)
#define FASTBLAKE_VERSION_STRING                                                  \
  FASTBLAKE_VERSION_TEXT(FASTBLAKE_VERSION_MAJOR)                                 \
  "." FASTBLAKE_VERSION_TEXT(FASTBLAKE_VERSION_MINOR) "." FASTBLAKE_VERSION_TEXT( \
      FASTBLAKE_VERSION_PATCH)

// The library is built with hidden visibility; FASTBLAKE_API marks what it exports.
#if defined(_WIN32)
#if defined(FASTBLAKE_BUILDING_SHARED)
#define FASTBLAKE_API __declspec(dllexport)
#elif defined(FASTBLAKE_SHARED)
#define FASTBLAKE_API __declspec(dllimport)
#else
#define FASTBLAKE_API
#endif
#else
#define FASTBLAKE_API __attribute__((visibility("default")))
#endif

// The file API (<fastblake/file.hpp>, and the descriptor functions of Bao and of the C API):
// POSIX systems and Windows, where descriptors are the C runtime's (_open, _fileno) and the
// C API's names are UTF-8.
#if defined(__unix__) || defined(__APPLE__) || defined(_WIN32)
#define FASTBLAKE_FILES 1
#else
#define FASTBLAKE_FILES 0
#endif
