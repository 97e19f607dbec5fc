// Every public fastblake header.
#pragma once

#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>
