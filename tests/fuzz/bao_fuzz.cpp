// Bao's decoders under a fuzzer: an encoding, outboard (or its input) or slice that the fuzzer
// corrupted either fails with bao::error or decodes to exactly the bytes encoded, never to
// others; and bytes of the fuzzer's own taken for an encoding either fail or decode to an output
// whose BLAKE3 hash is the hash they were decoded against; and as outboards of either order,
// converted to the other. Nothing may crash, hang or allocate
// by a length header's word (the run's memory limit holds that).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>

#include "fuzz_check.hpp"

namespace {

namespace bao = fastblake::bao;
using bytes = std::vector<std::byte>;

void corrupt(bytes& b, const std::vector<std::pair<std::uint32_t, std::uint8_t>>& flips) {
  if (b.empty()) return;
  for (const auto& [at, mask] : flips) b[at % b.size()] ^= std::byte{mask};
}

bytes part(const bytes& b, std::uint64_t start, std::uint64_t count) {
  const std::uint64_t from = std::min<std::uint64_t>(start, b.size());
  const std::uint64_t to = from + std::min<std::uint64_t>(count, b.size() - from);
  return bytes(b.begin() + static_cast<std::ptrdiff_t>(from),
               b.begin() + static_cast<std::ptrdiff_t>(to));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const unsigned group_log = in.ConsumeIntegralInRange<unsigned>(0, 3);
  const int mode = in.ConsumeIntegralInRange(0, 4);
  std::vector<std::pair<std::uint32_t, std::uint8_t>> flips(in.ConsumeIntegralInRange(0, 4));
  for (auto& f : flips)
    f = {in.ConsumeIntegral<std::uint32_t>(), in.ConsumeIntegral<std::uint8_t>()};
  // The input: the fuzzer's remaining bytes repeated to a length of its choosing, so that
  // trees of several levels are reached from short inputs, and, one time in sixteen, several
  // of the decoder's batches of 256 chunks (fewer, to keep the runs many).
  const bool large = in.ConsumeIntegralInRange(0, 15) == 0;
  const auto length = in.ConsumeIntegralInRange<std::size_t>(0, (large ? 600 : 40) * 1024);
  const std::uint64_t start = in.ConsumeIntegralInRange<std::uint64_t>(0, 700 * 1024);
  const std::uint64_t count = in.ConsumeIntegralInRange<std::uint64_t>(0, 300 * 1024);
  const bytes seed = in.ConsumeRemainingBytes<std::byte>();
  bytes content(seed.empty() ? 0 : length);
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = seed[i % seed.size()];
  try {
    switch (mode) {
      case 0: {
        bao::encoding e = bao::encode(content, group_log);
        corrupt(e.bytes, flips);
        FUZZ_CHECK(bao::decode(e.hash, e.bytes, group_log) == content);
        break;
      }
      case 1: {
        bao::encoding e = bao::encode_outboard(content, group_log);
        bytes input = content;
        corrupt(flips.size() % 2 == 0 ? e.bytes : input, flips);
        FUZZ_CHECK(bao::decode_outboard(e.hash, e.bytes, input, group_log) == content);
        break;
      }
      case 2: {
        const bao::encoding e = bao::encode(content, group_log);
        bytes slice = bao::extract_slice(e.bytes, start, count, group_log);
        corrupt(slice, flips);
        // A reader over the slice hands out only the input's bytes, in order; all of them
        // where decode_slice accepts the slice.
        const bytes want = part(content, start, count);
        bao::reader r =
            bao::reader::over_slice(e.hash, bao::read_from(slice), start, count, group_log);
        bytes got, piece(1 + count % 70000);
        bool failed = false;
        try {
          for (std::size_t n; (n = r.read(piece)) != 0;) {
            got.insert(got.end(), piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(n));
          }
        } catch (const bao::error&) {
          failed = true;
        }
        FUZZ_CHECK(got.size() <= want.size() && std::equal(got.begin(), got.end(), want.begin()));
        FUZZ_CHECK(bao::decode_slice(e.hash, slice, start, count, group_log) == want);
        FUZZ_CHECK(!failed && got == want);
        break;
      }
      case 3: {
        // The fuzzer's bytes as an outboard of either order: converted, or refused by their
        // length, never read past; and converted back to what they were.
        // Seen through pre_order_view, read at a place and size of the fuzzer's: the bytes of
        // the conversion, or an error, within the bytes asked for.
        const bao::read_at_function view =
            bao::pre_order_view(bao::read_from(seed), seed.size(), group_log);
        bytes window(static_cast<std::size_t>(std::min<std::uint64_t>(count, 1u << 20)));
        const std::size_t got = view(start, window);
        FUZZ_CHECK(got <= window.size());
        const bytes pre = bao::pre_order_outboard(seed, group_log);
        FUZZ_CHECK(pre.size() == seed.size());
        FUZZ_CHECK(bao::post_order_outboard(pre, group_log) == seed);
        FUZZ_CHECK(bytes(window.begin(), window.begin() + static_cast<std::ptrdiff_t>(got)) ==
                   part(pre, start, window.size()));
        const bytes post = bao::post_order_outboard(seed, group_log);
        FUZZ_CHECK(bao::pre_order_outboard(post, group_log) == part(seed, 0, post.size()));
        break;
      }
      default: {
        // The fuzzer's bytes as an encoding, against the hash of their first ten.
        const auto hash =
            fastblake::blake3::hash(std::span(seed).first(std::min<std::size_t>(10, seed.size())));
        const bytes out = bao::decode(hash, seed, group_log);
        FUZZ_CHECK(fastblake::blake3::hash(out) == hash);
        break;
      }
    }
  } catch (const bao::error&) {
  }
  return 0;
}
