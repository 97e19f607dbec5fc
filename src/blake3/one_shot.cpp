// BLAKE3's one-shot functions (hash, keyed_hash, derive_key and their _serial and _parallel
// forms) and many independent inputs at once (hash_many), over the tree (tree.hpp).
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "backend/backend.hpp"
#include "blake3/tree.hpp"

namespace fastblake::blake3 {

namespace {

namespace k3 = fastblake::internal::blake3;
using namespace k3::tree;

}  // namespace

// ---- one-shot functions ----

namespace {

// The automatic functions (no pool named) choose threads, and may offload, by size.
struct automatic_t {};
constexpr automatic_t automatic;

// The digest of one chunk or less straight from the input: its whole blocks but the last in
// one compress_blocks call, the last one padded and compressed as the root. No chunk state, no
// copies but the last block's: at 64 B this is most of the time a hash takes besides the
// compression. The kernels' hash_roots does the same for one input, but through its dispatch
// over vector widths: 64 B took 0.71 GB/s that way against 0.95 here (avx512, Intel Xeon).
digest small_digest(const k3::kernels& k, std::span<const std::byte> input, const key_words& key,
                    std::uint8_t flags) noexcept {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(input.data());
  const std::size_t full = input.empty() ? 0 : (input.size() - 1) / k3::block_len;
  key_words cv = key;
  k.compress_blocks(cv.data(), bytes, full, 0, static_cast<std::uint8_t>(flags | k3::chunk_start),
                    flags);
  std::uint8_t last[k3::block_len] = {};
  const std::size_t rest = input.size() - full * k3::block_len;
  if (rest != 0) std::memcpy(last, bytes + full * k3::block_len, rest);
  k.compress_in_place(cv.data(), last, static_cast<std::uint8_t>(rest), 0,
                      static_cast<std::uint8_t>(flags | (full == 0 ? k3::chunk_start : 0) |
                                                k3::chunk_end | k3::root));
  digest::bytes_type out;
  fastblake::internal::store_le32_words(cv.data(), out.data(), 8);
  return digest(out);
}

digest one_shot(std::span<const std::byte> input, const key_words& key, std::uint8_t flags,
                thread_pool* pool) noexcept {
  const k3::kernels& k = k3::active_kernels();
  if (input.size() <= k3::chunk_len) return small_digest(k, input, key, flags);
  return root_digest(k, one_shot_root(k, input, key, flags, pool, false));
}

digest one_shot(std::span<const std::byte> input, const key_words& key, std::uint8_t flags,
                automatic_t) noexcept {
  const k3::kernels& k = k3::active_kernels();
  if (input.size() <= k3::chunk_len) return small_digest(k, input, key, flags);
  return root_digest(k,
                     one_shot_root(k, input, key, flags, automatic_input_pool(input.size()), true));
}

}  // namespace

digest hash(std::span<const std::byte> input) noexcept {
  return one_shot(input, std::to_array(k3::iv), 0, automatic);
}

digest hash_serial(std::span<const std::byte> input) noexcept {
  return one_shot(input, std::to_array(k3::iv), 0, nullptr);
}

digest hash_parallel(std::span<const std::byte> input, thread_pool& pool) noexcept {
  return one_shot(input, std::to_array(k3::iv), 0, &pool);
}

digest keyed_hash(const key_type& key, std::span<const std::byte> input) noexcept {
  return one_shot(input, words_from_key(key.data()), k3::keyed_hash, automatic);
}

digest keyed_hash_serial(const key_type& key, std::span<const std::byte> input) noexcept {
  return one_shot(input, words_from_key(key.data()), k3::keyed_hash, nullptr);
}

digest keyed_hash_parallel(const key_type& key, std::span<const std::byte> input,
                           thread_pool& pool) noexcept {
  return one_shot(input, words_from_key(key.data()), k3::keyed_hash, &pool);
}

digest derive_key(std::string_view context, std::span<const std::byte> material) noexcept {
  return one_shot(material, context_key(context), k3::derive_key_material, automatic);
}

digest derive_key_serial(std::string_view context, std::span<const std::byte> material) noexcept {
  return one_shot(material, context_key(context), k3::derive_key_material, nullptr);
}

digest derive_key_parallel(std::string_view context, std::span<const std::byte> material,
                           thread_pool& pool) noexcept {
  return one_shot(material, context_key(context), k3::derive_key_material, &pool);
}

void derive_key(std::string_view context, std::span<const std::byte> material,
                std::span<std::byte> out) noexcept {
  const k3::kernels& k = k3::active_kernels();
  const output_node root = one_shot_root(k, material, context_key(context), k3::derive_key_material,
                                         automatic_input_pool(material.size()), true);
  root_output(k, root, 0, 0, reinterpret_cast<std::uint8_t*>(out.data()), out.size(),
              automatic_output_pool(out.size()));
}

// ---- many independent inputs ----

namespace {

// Hashes inputs in windows of a bounded size (no allocation). In each window the inputs of at
// most one chunk are ordered by block count, a counting sort over 0..16 blocks, so that each
// SIMD group of hash_roots runs about as long as its own inputs; larger inputs go one by one.
// hash_many_in_mode writes a window's digests into outputs as bytes.
static_assert(sizeof(digest) == out_size && std::is_trivially_copyable_v<digest>);

void hash_many_in_mode(std::span<const std::span<const std::byte>> inputs,
                       std::span<digest> outputs, const key_words& key, std::uint8_t flags) {
  if (inputs.size() != outputs.size()) {
    throw std::invalid_argument("fastblake::blake3::hash_many: " + std::to_string(inputs.size()) +
                                " inputs but " + std::to_string(outputs.size()) + " outputs");
  }
  const k3::kernels& k = k3::active_kernels();
  constexpr std::size_t window = 256;
  constexpr std::size_t buckets = k3::blocks_per_chunk + 1;
  for (std::size_t start = 0; start < inputs.size(); start += window) {
    const std::size_t end = std::min(inputs.size(), start + window);
    // A window whose inputs all have one block count (a batch of equal sizes) needs no sort:
    // the digests go straight to outputs, in order.
    const std::size_t blocks_of_first = (inputs[start].size() + k3::block_len - 1) / k3::block_len;
    bool uniform = inputs[start].size() <= k3::chunk_len;
    for (std::size_t i = start + 1; uniform && i < end; ++i) {
      uniform = (inputs[i].size() + k3::block_len - 1) / k3::block_len == blocks_of_first;
    }
    if (uniform) {
      const std::uint8_t* pointers[window];
      std::size_t lengths[window];
      for (std::size_t i = start; i < end; ++i) {
        pointers[i - start] = reinterpret_cast<const std::uint8_t*>(inputs[i].data());
        lengths[i - start] = inputs[i].size();
      }
      k.hash_roots(pointers, lengths, end - start, key.data(), flags,
                   reinterpret_cast<std::uint8_t*>(outputs.data() + start));
      continue;
    }
    std::size_t first[buckets + 1] = {};
    for (std::size_t i = start; i < end; ++i) {
      const std::size_t len = inputs[i].size();
      if (len <= k3::chunk_len) {
        ++first[(len + k3::block_len - 1) / k3::block_len + 1];
      } else {
        outputs[i] = root_digest(k, one_shot_root(k, inputs[i], key, flags, nullptr, false));
      }
    }
    for (std::size_t b = 1; b <= buckets; ++b) first[b] += first[b - 1];
    const std::size_t small = first[buckets];
    const std::uint8_t* pointers[window];
    std::size_t lengths[window];
    std::uint16_t index[window];
    for (std::size_t i = start; i < end; ++i) {
      const std::size_t len = inputs[i].size();
      if (len > k3::chunk_len) continue;
      const std::size_t slot = first[(len + k3::block_len - 1) / k3::block_len]++;
      pointers[slot] = reinterpret_cast<const std::uint8_t*>(inputs[i].data());
      lengths[slot] = len;
      index[slot] = static_cast<std::uint16_t>(i - start);
    }
    std::uint8_t digests[window][out_size];
    k.hash_roots(pointers, lengths, small, key.data(), flags, &digests[0][0]);
    for (std::size_t slot = 0; slot < small; ++slot) {
      digest::bytes_type bytes;
      std::memcpy(bytes.data(), digests[slot], out_size);
      outputs[start + index[slot]] = digest(bytes);
    }
  }
}

}  // namespace

void hash_many(std::span<const std::span<const std::byte>> inputs, std::span<digest> outputs) {
  hash_many_in_mode(inputs, outputs, std::to_array(k3::iv), 0);
}

void keyed_hash_many(const key_type& key, std::span<const std::span<const std::byte>> inputs,
                     std::span<digest> outputs) {
  hash_many_in_mode(inputs, outputs, words_from_key(key.data()), k3::keyed_hash);
}
}  // namespace fastblake::blake3
