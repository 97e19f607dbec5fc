// BLAKE3 under a fuzzer: an input of any length (the fuzzer's bytes, stretched up to 1 MiB)
// in any mode, cut into any pieces, must hash the same on every backend, one-shot, streamed
// and on threads; subtrees cut where the tree allows must merge to the same hash; extendable
// output must read the same from any position, however the reads are cut.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "fuzz_check.hpp"

namespace {

namespace b3 = fastblake::blake3;

std::vector<std::byte> stretch(const std::vector<std::uint8_t>& seed, std::size_t size) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) {
    // Repeats the seed, each round xored with its number, so that chunks differ.
    const std::uint8_t base = seed.empty() ? 0 : seed[i % seed.size()];
    out[i] = static_cast<std::byte>(base ^ (seed.empty() ? i : i / seed.size()));
  }
  return out;
}

b3::output_reader streamed(const b3::hazmat::mode& m, std::span<const std::byte> input,
                           const std::vector<std::size_t>& pieces) {
  b3::hasher h(m);
  return fastblake::fuzz::fed(h, input, pieces).finalize_xof();
}

std::vector<std::uint8_t> read(b3::output_reader r, std::uint64_t at, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  r.seek(at);
  r.fill(std::span<std::uint8_t>(out));
  return out;
}

b3::hazmat::chaining_value subtree(const b3::hazmat::mode& m, std::span<const std::byte> input,
                                   std::uint64_t offset) {
  b3::hasher h(m);
  b3::hazmat::set_input_offset(h, offset);
  h.update(input);
  return b3::hazmat::finalize_non_root(h);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  b3::hazmat::mode m = b3::hazmat::mode::hash();
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 1: {
      b3::key_type key{};
      const auto bytes = in.ConsumeBytes<std::uint8_t>(32);
      std::copy(bytes.begin(), bytes.end(), key.begin());
      m = b3::hazmat::mode::keyed(key);
      break;
    }
    case 2:
      m = b3::hazmat::mode::derive_key(in.ConsumeRandomLengthString(64));
      break;
    default:
      break;
  }
  // Mostly up to 16 chunks, where every tree shape and SIMD width is reached quickly; one input
  // in eight up to 1 MiB, for deep trees and the threads.
  const bool large = in.ConsumeIntegralInRange(0, 7) == 0;
  const std::size_t length =
      in.ConsumeIntegralInRange<std::size_t>(0, large ? 1u << 20 : 16 * b3::chunk_size);
  const std::vector<std::size_t> cuts = fastblake::fuzz::consume_pieces(in, 12, 3 * b3::chunk_size);
  const std::uint64_t seek = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint64_t>(0, 4096)
                                              : in.ConsumeIntegral<std::uint64_t>();
  const std::size_t out_len = in.ConsumeIntegralInRange<std::size_t>(0, 300);
  const std::size_t out_cut = in.ConsumeIntegralInRange<std::size_t>(0, out_len);
  const std::vector<std::byte> input = stretch(in.ConsumeRemainingBytes<std::uint8_t>(), length);

  const std::string_view best = fastblake::active_backend();
  FUZZ_CHECK(fastblake::use_backend("portable"));
  const b3::output_reader reference = b3::hasher(m).update(input).finalize_xof();
  const auto want = read(reference, 0, 4096);
  static fastblake::thread_pool pool(3);
  for (std::string_view backend : fastblake::available_backends()) {
    FUZZ_CHECK(fastblake::use_backend(backend));
    FUZZ_CHECK(read(streamed(m, input, cuts), 0, 4096) == want);
    FUZZ_CHECK(read(b3::hasher(m).update_parallel(input, pool).finalize_xof(), 0, 64) ==
               std::vector(want.begin(), want.begin() + 64));
  }
  FUZZ_CHECK(fastblake::use_backend(best));
  const b3::digest digest(*reinterpret_cast<const b3::digest::bytes_type*>(want.data()));
  if (m.flags() == b3::hazmat::mode::hash().flags()) {
    FUZZ_CHECK(b3::hash(input) == digest);
    FUZZ_CHECK(b3::hash_parallel(input, pool) == digest);
  }

  // Output: from any position, in one read or two, equal to the reference's where it overlaps.
  // Past byte 2^64 - 1 it goes on, as the official C's does (output blocks numbered from 2^58
  // on): the bytes up to there are the reference's, and two reads still equal one.
  const bool past_end = out_len > ~std::uint64_t{0} - seek;
  if (past_end) {
    b3::output_reader r = reference;
    r.seek(seek);
    std::vector<std::uint8_t> whole(out_len);
    r.fill(std::span<std::uint8_t>(whole));
    b3::output_reader split = reference;
    split.seek(seek);
    std::vector<std::uint8_t> pieces(out_len);
    split.fill(std::span(pieces.data(), out_cut));
    split.fill(std::span(pieces.data() + out_cut, out_len - out_cut));
    FUZZ_CHECK(pieces == whole);
    const auto to_end = static_cast<std::size_t>(~std::uint64_t{0} - seek + 1);
    const auto before = read(reference, seek, to_end);
    FUZZ_CHECK(std::equal(before.begin(), before.end(), whole.begin()));
  } else {
    const auto whole = read(reference, seek, out_len);
    b3::output_reader r = reference;
    r.seek(seek);
    std::vector<std::uint8_t> pieces(out_len);
    r.fill(std::span(pieces.data(), out_cut));
    r.fill(std::span(pieces.data() + out_cut, out_len - out_cut));
    FUZZ_CHECK(pieces == whole);
    FUZZ_CHECK(r.position() == seek + out_len);
    if (seek + out_len <= want.size()) {
      FUZZ_CHECK(std::equal(whole.begin(), whole.end(), want.begin() + static_cast<long>(seek)));
    }
  }

  // Subtrees: the root's two children, and the left child's own two, merged back.
  if (input.size() > b3::chunk_size) {
    const std::uint64_t left = b3::hazmat::left_subtree_len(input.size());
    const auto l = std::span(input).first(left);
    const auto r = std::span(input).subspan(left);
    const b3::hazmat::chaining_value right_cv = subtree(m, r, left);
    b3::hazmat::chaining_value left_cv = subtree(m, l, 0);
    FUZZ_CHECK(b3::hazmat::merge_subtrees_root(left_cv, right_cv, m) == digest);
    if (left > b3::chunk_size) {
      const std::uint64_t half = left / 2;
      left_cv = b3::hazmat::merge_subtrees_non_root(subtree(m, l.first(half), 0),
                                                    subtree(m, l.subspan(half), half), m);
      FUZZ_CHECK(read(b3::hazmat::merge_subtrees_root_xof(left_cv, right_cv, m), 0, 64) ==
                 std::vector(want.begin(), want.begin() + 64));
    }
  }
  return 0;
}
