// Every public fastblake header.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <fastblake/backend.hpp>
#include <fastblake/bao.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
#if FASTBLAKE_FILES
#include <fastblake/file.hpp>
#endif
#include <fastblake/thread_pool.hpp>
