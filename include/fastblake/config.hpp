// Build configuration shared by every public header: version and symbol export.
#pragma once

#define FASTBLAKE_VERSION_MAJOR 0
#define FASTBLAKE_VERSION_MINOR 1
#define FASTBLAKE_VERSION_PATCH 0
#define FASTBLAKE_VERSION_STRING "0.1.0"

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
