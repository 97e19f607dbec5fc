// Every public fastblake header.
#pragma once

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
#include <fastblake/thread_pool.hpp>
