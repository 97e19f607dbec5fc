// BLAKE3 kernels written once over vector traits, instantiated by each SIMD backend's file
// (every backend of cmake/Backends.cmake but portable).
//
// No include guard, and no includes but its three parts (simd_rows-, simd_wide- and
// simd_stacked-inl.hpp): each ISA file includes this inside its own anonymous
// namespace, after <algorithm>, <cstring>, kernels.hpp, schedule.hpp and compiler.hpp, and
// after defining
//   struct row   4-lane (128-bit) vectors for one block at a time: add, xor_, set1, setr(w0,
//                w1, w2, w3), loadu, storeu, rot16, rot12, rot8, rot7, rotate_lanes<k>(reg)
//                (lane i takes lane i + k).
// The many-block functions are templates over a vector type W with N lanes of 32-bit words:
// the arithmetic above, transpose(reg[N]) of an N x N tile, and with more than 8 lanes
// store_half (the low 8 words). Each ISA file calls them with its widths, widest first.
// So every function here is compiled with that file's flags and has internal linkage: the
// linker can never hand an older CPU the AVX-512 copy of a shared inline function.

// Bytes in memory (message blocks, chaining values and output written as bytes) hold
// little-endian words; word arrays (cv, key, counters) are native. On a big-endian target the
// traits give load_le and store_le for the bytes; on a little-endian one loadu and storeu are
// the same thing.
template <class W>
FASTBLAKE_ALWAYS_INLINE typename W::reg load_le(const void* p) {
  if constexpr (std::endian::native == std::endian::big) {
    return W::load_le(p);
  } else {
    return W::loadu(p);
  }
}

template <class W>
FASTBLAKE_ALWAYS_INLINE void store_le(void* p, typename W::reg v) {
  if constexpr (std::endian::native == std::endian::big) {
    W::store_le(p, v);
  } else {
    W::storeu(p, v);
  }
}

// The three layouts, each in a file of its own, in this order (the stacked rows fall back on
// the wide kernels):
#include "kernels/blake3/simd_rows-inl.hpp"

#include "kernels/blake3/simd_wide-inl.hpp"

#include "kernels/blake3/simd_stacked-inl.hpp"

// ---- kernel entry points: the widest vectors first, then narrower ones for the rest ----

// Runs batch.operator()<W> over n items in groups of W::lanes. What is left runs as one more
// group of W with its spare lanes repeating the first item when it fills more than half of it
// (or W is the narrowest width), else with the next narrower width; one item left at the
// narrowest width goes through `single` (one lane of work gains nothing from vectors).
// `index` counts items done.
template <class W, class... Narrower, class Batch, class Single>
FASTBLAKE_ALWAYS_INLINE void in_batches(const std::uint8_t* input, std::size_t n,
                                        std::size_t input_stride, std::uint8_t* out,
                                        std::size_t out_stride, std::uint64_t index,
                                        const Batch& batch, const Single& single) {
  const std::uint8_t* inputs[W::lanes];
  for (; n >= W::lanes; n -= W::lanes) {
    for (std::size_t lane = 0; lane < W::lanes; ++lane) inputs[lane] = input + lane * input_stride;
    batch.template operator()<W>(inputs, index, out);
    input += W::lanes * input_stride;
    out += W::lanes * out_stride;
    index += W::lanes;
  }
  constexpr bool narrowest = sizeof...(Narrower) == 0;
  if (n == 0) return;
  if (n > W::lanes / 2 || (narrowest && n > 1)) {
    for (std::size_t lane = 0; lane < W::lanes; ++lane)
      inputs[lane] = input + (lane < n ? lane : 0) * input_stride;
    alignas(64) std::uint8_t spare[W::lanes * block_len];
    batch.template operator()<W>(inputs, index, spare);
    std::memcpy(out, spare, n * out_stride);
  } else if constexpr (!narrowest) {
    in_batches<Narrower...>(input, n, input_stride, out, out_stride, index, batch, single);
  } else {
    single(input, index, out);
  }
}

template <class... Widths>
void hash_chunks_with(const std::uint8_t* input, std::size_t num_chunks, const std::uint32_t key[8],
                      std::uint64_t counter, std::uint8_t flags, std::uint8_t* out) {
  in_batches<Widths...>(
      input, num_chunks, chunk_len, out, out_len, counter,
      [&]<class W>(const std::uint8_t* const* inputs, std::uint64_t chunk, std::uint8_t* o) {
        group_hash<W>(inputs, blocks_per_chunk, key, chunk, true, flags, chunk_start, chunk_end, o);
      },
      [&](const std::uint8_t* in, std::uint64_t chunk, std::uint8_t* o) {
        row_hash_chunk(in, key, chunk, flags, o);
      });
}

template <class... Widths>
void hash_parents_with(const std::uint8_t* input, std::size_t num_parents,
                       const std::uint32_t key[8], std::uint8_t flags, std::uint8_t* out) {
  const auto parent_flags = static_cast<std::uint8_t>(flags | parent);
  in_batches<Widths...>(
      input, num_parents, block_len, out, out_len, 0,
      [&]<class W>(const std::uint8_t* const* inputs, std::uint64_t, std::uint8_t* o) {
        group_hash<W>(inputs, 1, key, 0, false, parent_flags, 0, 0, o);
      },
      [&](const std::uint8_t* in, std::uint64_t, std::uint8_t* o) {
        std::uint32_t cv[8];
        std::memcpy(cv, key, sizeof cv);
        row_compress_in_place(cv, in, block_len, 0, parent_flags);
        store_le32_words(cv, o, 8);
      });
}

// Whole small messages: groups of lanes with pointer and length arrays, narrower for the rest;
// a last odd one alone goes through the row path.
template <class W, class... Narrower>
void hash_roots_with(const std::uint8_t* const* inputs, const std::size_t* lengths,
                     std::size_t num_inputs, const std::uint32_t key[8], std::uint8_t flags,
                     std::uint8_t* out) {
  for (; num_inputs >= W::lanes; num_inputs -= W::lanes) {
    wide_roots<W>(inputs, lengths, key, flags, out);
    inputs += W::lanes;
    lengths += W::lanes;
    out += W::lanes * out_len;
  }
  if (num_inputs == 0) return;
  if constexpr (sizeof...(Narrower) > 0) {
    hash_roots_with<Narrower...>(inputs, lengths, num_inputs, key, flags, out);
  } else if (num_inputs == 1) {
    std::uint32_t cv[8];
    std::memcpy(cv, key, sizeof cv);
    const std::size_t full = lengths[0] == 0 ? 0 : (lengths[0] - 1) / block_len;
    row_compress_blocks(cv, inputs[0], full, 0, flags | chunk_start, flags);
    std::uint8_t tail[block_len] = {};
    const std::size_t rest = lengths[0] - full * block_len;
    if (rest != 0) std::memcpy(tail, inputs[0] + full * block_len, rest);
    row_compress_in_place(cv, tail, static_cast<std::uint8_t>(rest), 0,
                          flags | (full == 0 ? chunk_start : 0) | chunk_end | root);
    store_le32_words(cv, out, 8);
  } else {
    const std::uint8_t* padded[W::lanes];
    std::size_t padded_lengths[W::lanes];
    for (std::size_t lane = 0; lane < W::lanes; ++lane) {
      padded[lane] = inputs[lane < num_inputs ? lane : 0];
      padded_lengths[lane] = lengths[lane < num_inputs ? lane : 0];
    }
    alignas(64) std::uint8_t spare[W::lanes * out_len];
    wide_roots<W>(padded, padded_lengths, key, flags, spare);
    std::memcpy(out, spare, num_inputs * out_len);
  }
}

// Output blocks need no input: `input` only paces in_batches (stride 0).
template <class... Widths>
void xof_many_with(const std::uint32_t cv[8], const std::uint8_t block[block_len], std::uint8_t len,
                   std::uint64_t counter, std::uint8_t flags, std::uint8_t* out,
                   std::size_t num_blocks) {
  in_batches<Widths...>(
      block, num_blocks, 0, out, block_len, counter,
      [&]<class W>(const std::uint8_t* const*, std::uint64_t first, std::uint8_t* o) {
        wide_xof_batch<W>(cv, block, len, first, flags, o);
      },
      [&](const std::uint8_t*, std::uint64_t first, std::uint8_t* o) {
        row_compress_xof(cv, block, len, first, flags, o);
      });
}

// The table of a kernel whose rows are `row` and whose many-block functions all run W.
template <class W>
constexpr kernels kernels_with() {
  return {
      .simd_degree = W::lanes,
      .compress_in_place = row_compress_in_place,
      .compress_blocks = row_compress_blocks,
      .xof_many = xof_many_with<W>,
      .hash_chunks = hash_chunks_with<W>,
      .hash_roots = hash_roots_with<W>,
      .hash_parents = hash_parents_with<W>,
  };
}
