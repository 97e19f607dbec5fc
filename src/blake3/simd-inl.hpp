// BLAKE3 kernels written once over vector traits, instantiated by each x86 instruction-set file.
//
// No include guard and no includes: each ISA file includes this inside its own anonymous
// namespace, after <cstring>, kernels.hpp, schedule.hpp and compiler.hpp, and after defining
//   struct wide  N-lane vectors of 32-bit words: using reg; lanes; add, xor_, set1, loadu,
//                storeu, rot16, rot12, rot8, rot7, and transpose(reg[lanes]) of an N x N tile;
//                with more than 8 lanes also store_half (the low 8 words).
//   struct row   4-lane (128-bit) vectors for one block at a time: the same arithmetic, plus
//                setr(w0, w1, w2, w3) and rotate_lanes<k>(reg) (lane i takes lane i + k).
// So every function here is compiled with that file's flags and has internal linkage: the
// linker can never hand an older CPU the AVX-512 copy of a shared inline function.

// ---- one block at a time: the state as four rows of four words ----

// One G function on each of the four columns (or, after rotate_lanes, diagonals) at once.
// a += b + x is computed as (a + x) + b: x is ready early, so only one add waits for b.
FASTBLAKE_ALWAYS_INLINE void row_g(row::reg& a, row::reg& b, row::reg& c, row::reg& d, row::reg x,
                                   row::reg y) {
  a = row::add(row::add(a, x), b);
  d = row::rot16(row::xor_(d, a));
  c = row::add(c, d);
  b = row::rot12(row::xor_(b, c));
  a = row::add(row::add(a, y), b);
  d = row::rot8(row::xor_(d, a));
  c = row::add(c, d);
  b = row::rot7(row::xor_(b, c));
}

FASTBLAKE_ALWAYS_INLINE void row_round(row::reg r[4], const std::uint32_t m[16],
                                       const round_schedule& s) {
  row_g(r[0], r[1], r[2], r[3], row::setr(m[s[0]], m[s[2]], m[s[4]], m[s[6]]),
        row::setr(m[s[1]], m[s[3]], m[s[5]], m[s[7]]));
  // Diagonalise: lane i of rows 1-3 moves to where column i's diagonal partner is.
  r[1] = row::rotate_lanes<1>(r[1]);
  r[2] = row::rotate_lanes<2>(r[2]);
  r[3] = row::rotate_lanes<3>(r[3]);
  row_g(r[0], r[1], r[2], r[3], row::setr(m[s[8]], m[s[10]], m[s[12]], m[s[14]]),
        row::setr(m[s[9]], m[s[11]], m[s[13]], m[s[15]]));
  r[1] = row::rotate_lanes<3>(r[1]);
  r[2] = row::rotate_lanes<2>(r[2]);
  r[3] = row::rotate_lanes<1>(r[3]);
}

FASTBLAKE_ALWAYS_INLINE void row_rounds(row::reg r[4], const std::uint32_t cv[8],
                                        const std::uint8_t block[block_len], std::uint8_t len,
                                        std::uint64_t counter, std::uint8_t flags) {
  std::uint32_t m[16];
  std::memcpy(m, block, sizeof m);  // x86 is little-endian
  r[0] = row::loadu(cv);
  r[1] = row::loadu(cv + 4);
  r[2] = row::setr(iv[0], iv[1], iv[2], iv[3]);
  r[3] = row::setr(static_cast<std::uint32_t>(counter), static_cast<std::uint32_t>(counter >> 32),
                   len, flags);
  // Spelled out so that every schedule index is a constant.
  row_round(r, m, message_schedule[0]);
  row_round(r, m, message_schedule[1]);
  row_round(r, m, message_schedule[2]);
  row_round(r, m, message_schedule[3]);
  row_round(r, m, message_schedule[4]);
  row_round(r, m, message_schedule[5]);
  row_round(r, m, message_schedule[6]);
}

void row_compress_in_place(std::uint32_t cv[8], const std::uint8_t block[block_len],
                           std::uint8_t len, std::uint64_t counter, std::uint8_t flags) {
  row::reg r[4];
  row_rounds(r, cv, block, len, counter, flags);
  row::storeu(cv, row::xor_(r[0], r[2]));
  row::storeu(cv + 4, row::xor_(r[1], r[3]));
}

void row_compress_xof(const std::uint32_t cv[8], const std::uint8_t block[block_len],
                      std::uint8_t len, std::uint64_t counter, std::uint8_t flags,
                      std::uint8_t out[block_len]) {
  row::reg r[4];
  row_rounds(r, cv, block, len, counter, flags);
  row::storeu(out, row::xor_(r[0], r[2]));
  row::storeu(out + 16, row::xor_(r[1], r[3]));
  row::storeu(out + 32, row::xor_(r[2], row::loadu(cv)));
  row::storeu(out + 48, row::xor_(r[3], row::loadu(cv + 4)));
}

void row_hash_chunk(const std::uint8_t* input, const std::uint32_t key[8], std::uint64_t counter,
                    std::uint8_t flags, std::uint8_t out[out_len]) {
  std::uint32_t cv[8];
  std::memcpy(cv, key, sizeof cv);
  for (std::size_t b = 0; b < blocks_per_chunk; ++b) {
    std::uint8_t block_flags = flags;
    if (b == 0) block_flags |= chunk_start;
    if (b == blocks_per_chunk - 1) block_flags |= chunk_end;
    row_compress_in_place(cv, input + b * block_len, block_len, counter, block_flags);
  }
  std::memcpy(out, cv, out_len);
}

// ---- many blocks at once: word i of every lane in one vector ----

FASTBLAKE_ALWAYS_INLINE void wide_g(wide::reg v[16], int a, int b, int c, int d, wide::reg x,
                                    wide::reg y) {
  v[a] = wide::add(wide::add(v[a], x), v[b]);
  v[d] = wide::rot16(wide::xor_(v[d], v[a]));
  v[c] = wide::add(v[c], v[d]);
  v[b] = wide::rot12(wide::xor_(v[b], v[c]));
  v[a] = wide::add(wide::add(v[a], y), v[b]);
  v[d] = wide::rot8(wide::xor_(v[d], v[a]));
  v[c] = wide::add(v[c], v[d]);
  v[b] = wide::rot7(wide::xor_(v[b], v[c]));
}

// The four column G functions are independent of each other, as are the four diagonal ones:
// written as one step each, the compiler can interleave them to fill every vector pipe.
FASTBLAKE_ALWAYS_INLINE void wide_round(wide::reg v[16], const wide::reg m[16],
                                        const round_schedule& s) {
  wide_g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
  wide_g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
  wide_g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
  wide_g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
  wide_g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
  wide_g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
  wide_g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
  wide_g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

FASTBLAKE_ALWAYS_INLINE void wide_rounds(wide::reg v[16], const wide::reg m[16]) {
  wide_round(v, m, message_schedule[0]);
  wide_round(v, m, message_schedule[1]);
  wide_round(v, m, message_schedule[2]);
  wide_round(v, m, message_schedule[3]);
  wide_round(v, m, message_schedule[4]);
  wide_round(v, m, message_schedule[5]);
  wide_round(v, m, message_schedule[6]);
}

// The 64-byte blocks at inputs[lane] + offset as sixteen vectors, vector i holding word i of
// every lane: lanes x lanes tiles, each transposed in registers.
FASTBLAKE_ALWAYS_INLINE void load_transposed(const std::uint8_t* const inputs[wide::lanes],
                                             std::size_t offset, wide::reg m[16]) {
  for (std::size_t tile = 0; tile < 16 / wide::lanes; ++tile) {
    wide::reg* t = m + tile * wide::lanes;
    for (std::size_t lane = 0; lane < wide::lanes; ++lane)
      t[lane] = wide::loadu(inputs[lane] + offset + tile * wide::lanes * 4);
    wide::transpose(t);
  }
}

// The inverse for `words` (8 or 16) vectors: lane l's words go to out + l * stride. (W is
// always wide; as a template parameter it keeps store_half out of narrower instantiations.)
template <std::size_t words, class W = wide>
FASTBLAKE_ALWAYS_INLINE void store_transposed(const wide::reg v[words], std::uint8_t* out,
                                              std::size_t stride) {
  if constexpr (words < wide::lanes) {
    // More lanes than words: pad the tile, keep the low words of each row.
    wide::reg t[wide::lanes];
    for (std::size_t i = 0; i < wide::lanes; ++i) t[i] = i < words ? v[i] : wide::set1(0);
    wide::transpose(t);
    for (std::size_t lane = 0; lane < wide::lanes; ++lane)
      W::store_half(out + lane * stride, t[lane]);
  } else {
    for (std::size_t tile = 0; tile < words / wide::lanes; ++tile) {
      wide::reg t[wide::lanes];
      for (std::size_t i = 0; i < wide::lanes; ++i) t[i] = v[tile * wide::lanes + i];
      wide::transpose(t);
      for (std::size_t lane = 0; lane < wide::lanes; ++lane)
        wide::storeu(out + lane * stride + tile * wide::lanes * 4, t[lane]);
    }
  }
}

FASTBLAKE_ALWAYS_INLINE void counter_vectors(std::uint64_t counter, bool increment, wide::reg& lo,
                                             wide::reg& hi) {
  alignas(64) std::uint32_t l[wide::lanes], h[wide::lanes];
  for (std::size_t lane = 0; lane < wide::lanes; ++lane) {
    const std::uint64_t c = counter + (increment ? lane : 0);
    l[lane] = static_cast<std::uint32_t>(c);
    h[lane] = static_cast<std::uint32_t>(c >> 32);
  }
  lo = wide::loadu(l);
  hi = wide::loadu(h);
}

// Hashes `blocks` blocks from each of wide::lanes inputs (whole chunks, or single parent
// blocks) into their chaining values, written back to back.
FASTBLAKE_ALWAYS_INLINE void wide_hash(const std::uint8_t* const inputs[wide::lanes],
                                       std::size_t blocks, const std::uint32_t key[8],
                                       std::uint64_t counter, bool increment_counter,
                                       std::uint8_t flags, std::uint8_t flags_start,
                                       std::uint8_t flags_end, std::uint8_t* out) {
  wide::reg h[8];
  for (int i = 0; i < 8; ++i) h[i] = wide::set1(key[i]);
  wide::reg counter_lo, counter_hi;
  counter_vectors(counter, increment_counter, counter_lo, counter_hi);
  const wide::reg len = wide::set1(block_len);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint8_t block_flags = flags;
    if (b == 0) block_flags |= flags_start;
    if (b == blocks - 1) block_flags |= flags_end;
    wide::reg m[16];
    load_transposed(inputs, b * block_len, m);
    wide::reg v[16] = {h[0],
                       h[1],
                       h[2],
                       h[3],
                       h[4],
                       h[5],
                       h[6],
                       h[7],
                       wide::set1(iv[0]),
                       wide::set1(iv[1]),
                       wide::set1(iv[2]),
                       wide::set1(iv[3]),
                       counter_lo,
                       counter_hi,
                       len,
                       wide::set1(block_flags)};
    wide_rounds(v, m);
    for (int i = 0; i < 8; ++i) h[i] = wide::xor_(v[i], v[i + 8]);
  }
  store_transposed<8>(h, out, out_len);
}

// Runs `batch` over n items in groups of wide::lanes. A last partial group runs one item
// alone through `single` (one lane of work gains nothing from vectors), or else as a full
// group whose spare lanes repeat the first item, keeping only the real outputs.
template <class Batch, class Single>
FASTBLAKE_ALWAYS_INLINE void in_batches(const std::uint8_t* input, std::size_t n,
                                        std::size_t input_stride, std::size_t out_stride,
                                        std::uint8_t* out, Batch batch, Single single) {
  const std::uint8_t* inputs[wide::lanes];
  for (; n >= wide::lanes; n -= wide::lanes) {
    for (std::size_t lane = 0; lane < wide::lanes; ++lane)
      inputs[lane] = input + lane * input_stride;
    batch(inputs, out);
    input += wide::lanes * input_stride;
    out += wide::lanes * out_stride;
  }
  if (n == 1) {
    single(input, out);
  } else if (n > 1) {
    for (std::size_t lane = 0; lane < wide::lanes; ++lane)
      inputs[lane] = input + (lane < n ? lane : 0) * input_stride;
    alignas(64) std::uint8_t spare[wide::lanes * block_len];
    batch(inputs, spare);
    std::memcpy(out, spare, n * out_stride);
  }
}

void wide_hash_chunks(const std::uint8_t* input, std::size_t num_chunks, const std::uint32_t key[8],
                      std::uint64_t counter, std::uint8_t flags, std::uint8_t* out) {
  in_batches(
      input, num_chunks, chunk_len, out_len, out,
      [&](const std::uint8_t* const* inputs, std::uint8_t* o) {
        wide_hash(inputs, blocks_per_chunk, key, counter, true, flags, chunk_start, chunk_end, o);
        counter += wide::lanes;
      },
      [&](const std::uint8_t* in, std::uint8_t* o) { row_hash_chunk(in, key, counter, flags, o); });
}

void wide_hash_parents(const std::uint8_t* input, std::size_t num_parents,
                       const std::uint32_t key[8], std::uint8_t flags, std::uint8_t* out) {
  const auto parent_flags = static_cast<std::uint8_t>(flags | parent);
  in_batches(
      input, num_parents, block_len, out_len, out,
      [&](const std::uint8_t* const* inputs, std::uint8_t* o) {
        wide_hash(inputs, 1, key, 0, false, parent_flags, 0, 0, o);
      },
      [&](const std::uint8_t* in, std::uint8_t* o) {
        std::uint32_t cv[8];
        std::memcpy(cv, key, sizeof cv);
        row_compress_in_place(cv, in, block_len, 0, parent_flags);
        std::memcpy(o, cv, out_len);
      });
}

// Output blocks counter .. counter + lanes - 1 of one node: the message is the same in every
// lane, so no transposition on the way in; the counters differ.
FASTBLAKE_ALWAYS_INLINE void wide_xof_batch(const std::uint32_t cv[8],
                                            const std::uint8_t block[block_len], std::uint8_t len,
                                            std::uint64_t counter, std::uint8_t flags,
                                            std::uint8_t* out) {
  std::uint32_t words[16];
  std::memcpy(words, block, sizeof words);
  wide::reg m[16];
  for (int i = 0; i < 16; ++i) m[i] = wide::set1(words[i]);
  wide::reg counter_lo, counter_hi;
  counter_vectors(counter, true, counter_lo, counter_hi);
  wide::reg v[16] = {wide::set1(cv[0]), wide::set1(cv[1]), wide::set1(cv[2]), wide::set1(cv[3]),
                     wide::set1(cv[4]), wide::set1(cv[5]), wide::set1(cv[6]), wide::set1(cv[7]),
                     wide::set1(iv[0]), wide::set1(iv[1]), wide::set1(iv[2]), wide::set1(iv[3]),
                     counter_lo,        counter_hi,        wide::set1(len),   wide::set1(flags)};
  wide_rounds(v, m);
  for (int i = 0; i < 8; ++i) {
    v[i] = wide::xor_(v[i], v[i + 8]);
    v[i + 8] = wide::xor_(v[i + 8], wide::set1(cv[i]));
  }
  store_transposed<16>(v, out, block_len);
}

void wide_xof_many(const std::uint32_t cv[8], const std::uint8_t block[block_len], std::uint8_t len,
                   std::uint64_t counter, std::uint8_t flags, std::uint8_t* out,
                   std::size_t num_blocks) {
  for (; num_blocks >= wide::lanes; num_blocks -= wide::lanes) {
    wide_xof_batch(cv, block, len, counter, flags, out);
    counter += wide::lanes;
    out += wide::lanes * block_len;
  }
  if (num_blocks == 1) {
    row_compress_xof(cv, block, len, counter, flags, out);
  } else if (num_blocks > 1) {
    alignas(64) std::uint8_t spare[wide::lanes * block_len];
    wide_xof_batch(cv, block, len, counter, flags, spare);
    std::memcpy(out, spare, num_blocks * block_len);
  }
}
