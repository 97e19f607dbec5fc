// The plug-in interface of accelerators: how a library such as fastblake::cuda offers to hash
// large BLAKE3 subtrees for the CPU library, which reaches it without linking it.
//
// An accelerator library fills one `plugin` with static storage and passes it to
// register_plugin() from a static initialiser. From then on the automatic functions (hash(),
// keyed_hash(), derive_key(), and the file API with file_strategy::automatic) may hand it
// subtrees of offload_min_size() bytes or more; which side hashes each is measured, not
// assumed (backend.hpp: offload_mode, current_offload()). Nothing else ever offloads.
//
// The interface is versioned: `plugin` begins with the interface_version its library was
// built against, and a library built against another version is refused, so that a stale
// plug-in can never be called through a table of another shape.
#pragma once

#include <fastblake/detail/require_cxx20.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <system_error>

#include <fastblake/blake3.hpp>
#include <fastblake/config.hpp>

namespace fastblake::accelerator {

/// The version of `plugin` this header describes. Raised whenever the table changes shape.
inline constexpr std::uint32_t interface_version = 1;

/// What an accelerator gives the CPU library. The library calls the functions one at a time
/// (never concurrently), from whichever thread is hashing, and never from its own static
/// initialisers or destructors; across registrations too: while a call reached through an
/// earlier registration (of this plug-in or another) runs, no function of the new one is
/// called, and subtrees go to the CPU meanwhile. It holds no lock of its own around them: they may
/// call the library, backend.hpp's offload functions and hashing among them (a subtree hashed from
/// inside the plug-in, which is busy then, goes to the CPU), and may register another plug-in.
struct plugin {
  /// interface_version, as the plug-in's library saw it when it was compiled.
  std::uint32_t version = interface_version;
  /// The accelerator's name ("cuda"), with static storage: what current_offload() reports and
  /// FASTBLAKE_BACKEND may name to send every subtree there.
  std::string_view name;
  /// Makes the accelerator ready (device, buffers) before its first subtree, untimed; false
  /// with `error` set when it cannot be used (no device). Not called again after a failure.
  bool (*prepare)(std::error_code& error) noexcept = nullptr;
  /// Writes the two children (left then right chaining value) of the subtree made of `input`,
  /// which is more than one chunk and starts at chunk `chunk_counter` of its tree, hashed in
  /// mode `m`; false with `error` set on failure, and then `children` is not read and the
  /// accelerator is not used again until the next registration.
  bool (*subtree_children)(std::span<const std::byte> input, std::uint64_t chunk_counter,
                           const blake3::hazmat::mode& m, std::span<std::uint8_t, 64> children,
                           std::error_code& error) noexcept = nullptr;
};

/// Makes p the accelerator of this process; nullptr unregisters. The last registration wins
/// and starts afresh: nothing measured, no error, nothing counted. p must outlive its use (a
/// static object). Returns false, and changes nothing, when p is refused: its version is not
/// interface_version, or a function or its name is missing (or, never seen, when the 24 bytes
/// a registration keeps for the process's life cannot be allocated).
FASTBLAKE_API bool register_plugin(const plugin* p) noexcept;

/// The registered plug-in's name; empty when none is.
FASTBLAKE_API std::string_view registered_plugin_name() noexcept;

}  // namespace fastblake::accelerator
