// The Bao rows (family bao): the in-memory encoders and the decoders into a caller's buffer,
// next to blake3::hash() of the same input on the same threads (implementation blake3_hash),
// as issue 49's goals compare them: on the default pool as hash() takes it, and on one thread
// (/1t: a pool of one, and hash_serial). The outputs are allocated once per row, so the rows
// time the work and not the page faults of fresh memory. Each row's result is checked first:
// the encoders' hash against hash(), the decoders' output against the input.
#include <string>
#include <vector>

#include <fastblake/bao.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/thread_pool.hpp>

#include "common.hpp"

namespace fastblake::bench {
namespace {

namespace b3 = fastblake::blake3;

constexpr std::size_t bao_sizes[] = {1u << 20, 64u << 20, 1u << 30};

enum class operation { encode, encode_outboard, decode, decode_outboard, hash };

// threads: 0 for the automatic functions, 1 for a pool of one (hash_serial).
void bao_row(benchmark::State& state, operation op, std::size_t threads, std::size_t size) {
  const std::span<const std::byte> in = input(size);
  static thread_pool one(1);
  const b3::digest want = b3::hash(in);
  std::vector<std::byte> encoded(bao::encoded_size(size)), outboard(bao::outboard_size(size));
  bao::encode(in, encoded);
  bao::encode_outboard(in, outboard);
  std::vector<std::byte> out(op == operation::encode            ? encoded.size()
                             : op == operation::encode_outboard ? outboard.size()
                                                                : size);
  const auto call = [&]() -> bool {
    switch (op) {
      case operation::encode:
        return (threads == 0 ? bao::encode(in, out) : bao::encode(in, out, one)) == want;
      case operation::encode_outboard:
        return (threads == 0 ? bao::encode_outboard(in, out)
                             : bao::encode_outboard(in, out, one)) == want;
      case operation::decode:
        return (threads == 0 ? bao::decode(want, encoded, out)
                             : bao::decode(want, encoded, out, one)) == size;
      case operation::decode_outboard:
        return (threads == 0 ? bao::decode_outboard(want, outboard, in, out)
                             : bao::decode_outboard(want, outboard, in, out, one)) == size;
      case operation::hash:
        return (threads == 0 ? b3::hash(in) : b3::hash_serial(in)) == want;
    }
    return false;
  };
  const bool decodes = op == operation::decode || op == operation::decode_outboard;
  if (!call() || (decodes && !std::equal(in.begin(), in.end(), out.begin()))) {
    fail(state, "result differs from blake3::hash() or the input");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(call());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

}  // namespace

void register_bao() {
  const std::pair<const char*, operation> classes[] = {
      {"encode", operation::encode},
      {"encode-outboard", operation::encode_outboard},
      {"decode", operation::decode},
      {"decode-outboard", operation::decode_outboard},
  };
  for (std::size_t size : bao_sizes) {
    for (const auto& [name, op] : classes) {
      for (std::size_t threads : {0, 1}) {
        add_row(row_name("bao", name, "fastblake", size, threads), bao_row, op, threads, size);
        add_row(row_name("bao", name, "blake3_hash", size, threads), bao_row, operation::hash,
                threads, size);
      }
    }
  }
}

}  // namespace fastblake::bench
