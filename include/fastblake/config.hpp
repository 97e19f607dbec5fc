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
