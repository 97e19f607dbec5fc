// BLAKE2 under a fuzzer: every field of the parameter block (BLAKE2b and BLAKE2s), BLAKE2bp and
// BLAKE2sp with keys and lengths, and BLAKE2X's output read from any offset. The input, cut into
// any pieces and hashed on every backend, one message or many at a time, must give libb2's
// digest (the reference, built into this target), and the same on every path.
#include <blake2.h>
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/thread_pool.hpp>

#include "fuzz_check.hpp"

namespace {

namespace b2 = fastblake::blake2;
using fastblake::fuzz::fed;

template <class Digest>
std::vector<std::uint8_t> bytes_of(const Digest& d) {
  return {d.data(), d.data() + d.size()};
}

struct fields {
  std::size_t length;
  std::vector<std::uint8_t> key, salt, personal;
  unsigned fanout, depth, node_depth;
  std::uint32_t leaf_length;
  std::uint64_t node_offset;
  std::size_t inner_length;
  bool last;
};

template <b2::family F>
fields consume_fields(FuzzedDataProvider& in) {
  using t = b2::traits<F>;
  fields f;
  f.length = in.ConsumeIntegralInRange<std::size_t>(1, t::max_hash_length);
  f.key =
      in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, t::max_key_length));
  f.salt = in.ConsumeBytes<std::uint8_t>(t::salt_length);
  f.salt.resize(t::salt_length);
  f.personal = in.ConsumeBytes<std::uint8_t>(t::personal_length);
  f.personal.resize(t::personal_length);
  f.fanout = in.ConsumeIntegralInRange(0u, 255u);
  f.depth = in.ConsumeIntegralInRange(1u, 255u);
  f.node_depth = in.ConsumeIntegralInRange(0u, 255u);
  f.leaf_length = in.ConsumeIntegral<std::uint32_t>();
  f.node_offset = in.ConsumeIntegralInRange<std::uint64_t>(0, t::max_node_offset);
  f.inner_length = in.ConsumeIntegralInRange<std::size_t>(0, t::max_hash_length);
  f.last = in.ConsumeBool();
  return f;
}

template <b2::family F>
b2::params<F> to_params(const fields& f) {
  return b2::params<F>()
      .hash_length(f.length)
      .key(std::as_bytes(std::span(f.key)))
      .salt(std::as_bytes(std::span(f.salt)))
      .personal(std::as_bytes(std::span(f.personal)))
      .fanout(f.fanout)
      .max_depth(f.depth)
      .max_leaf_length(f.leaf_length)
      .node_offset(f.node_offset)
      .node_depth(f.node_depth)
      .inner_hash_length(f.inner_length)
      .last_node(f.last);
}

// libb2 with the whole parameter block; a key is its own first block, as the specification
// says and libb2's init_key does.
template <class Param, class State, class Init, class Update, class Final>
std::vector<std::uint8_t> libb2(const fields& f, std::span<const std::byte> input,
                                std::size_t block, Init init, Update update, Final final) {
  Param p{};
  p.digest_length = static_cast<std::uint8_t>(f.length);
  p.key_length = static_cast<std::uint8_t>(f.key.size());
  p.fanout = static_cast<std::uint8_t>(f.fanout);
  p.depth = static_cast<std::uint8_t>(f.depth);
  p.leaf_length = f.leaf_length;
  if constexpr (sizeof(p.node_offset) == 8) {
    p.node_offset = f.node_offset;
  } else {
    for (std::size_t i = 0; i < sizeof(p.node_offset); ++i) {
      p.node_offset[i] = static_cast<std::uint8_t>(f.node_offset >> (8 * i));
    }
  }
  p.node_depth = static_cast<std::uint8_t>(f.node_depth);
  p.inner_length = static_cast<std::uint8_t>(f.inner_length);
  std::memcpy(p.salt, f.salt.data(), f.salt.size());
  std::memcpy(p.personal, f.personal.data(), f.personal.size());
  State s;
  FUZZ_CHECK(init(&s, &p) == 0);
  if (!f.key.empty()) {
    std::vector<std::uint8_t> first(block, 0);
    std::memcpy(first.data(), f.key.data(), f.key.size());
    update(&s, first.data(), block);
  }
  s.last_node = f.last ? 1 : 0;
  update(&s, reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  std::vector<std::uint8_t> out(f.length);
  final(&s, out.data(), out.size());
  return out;
}

template <b2::family F>
std::vector<std::uint8_t> reference(const fields& f, std::span<const std::byte> input) {
  if constexpr (F == b2::family::b) {
    return libb2<blake2b_param, blake2b_state>(f, input, 128, blake2b_init_param, blake2b_update,
                                               blake2b_final);
  } else {
    return libb2<blake2s_param, blake2s_state>(f, input, 64, blake2s_init_param, blake2s_update,
                                               blake2s_final);
  }
}

template <b2::family F>
std::vector<std::uint8_t> parallel_reference(const fields& f, std::span<const std::byte> input) {
  std::vector<std::uint8_t> out(f.length);
  const auto* in = reinterpret_cast<const std::uint8_t*>(input.data());
  // libb2's argument order: out, in, key, then their lengths.
  const int status =
      F == b2::family::b
          ? blake2bp(out.data(), in, f.key.data(), out.size(), input.size(), f.key.size())
          : blake2sp(out.data(), in, f.key.data(), out.size(), input.size(), f.key.size());
  FUZZ_CHECK(status == 0);
  return out;
}

template <b2::family F>
void check_family(FuzzedDataProvider& in, std::span<const std::byte> input,
                  const std::vector<std::size_t>& cuts, fastblake::thread_pool& pool) {
  const fields f = consume_fields<F>(in);
  const b2::params<F> p = to_params<F>(f);
  const auto want = reference<F>(f, input);
  const auto want_parallel = parallel_reference<F>(f, input);
  const auto pp =
      b2::parallel_params<F>().hash_length(f.length).key(std::as_bytes(std::span(f.key)));
  const std::string_view best = fastblake::active_backend();
  for (std::string_view backend : fastblake::available_backends()) {
    FUZZ_CHECK(fastblake::use_backend(backend));
    FUZZ_CHECK(bytes_of(p.hash(input)) == want);
    b2::state<F> s(p);
    FUZZ_CHECK(bytes_of(fed(s, input, cuts).finalize()) == want);
    // Many messages at once: this one among copies of itself cut shorter.
    std::vector<b2::digest<F>> outs(3);
    const std::size_t shorter = input.size() / 2;
    const b2::job<F> jobs[] = {
        {input, &outs[0], &p}, {input.first(shorter), &outs[1], &p}, {input, &outs[2], nullptr}};
    b2::hash_many<F>(jobs);
    FUZZ_CHECK(bytes_of(outs[0]) == want);
    FUZZ_CHECK(outs[1] == p.hash(input.first(shorter)));
    FUZZ_CHECK(outs[2] == b2::hash<F>(input));
    FUZZ_CHECK(bytes_of(pp.hash(input)) == want_parallel);
    b2::parallel_state<F> ps(pp);
    FUZZ_CHECK(bytes_of(fed(ps, input, cuts).finalize()) == want_parallel);
  }
  FUZZ_CHECK(fastblake::use_backend(best));
  b2::parallel_state<F> threaded(pp);
  threaded.update(input, pool);
  FUZZ_CHECK(bytes_of(threaded.finalize()) == want_parallel);

  // BLAKE2X: any length, read from any offset, equal to the slice of the whole output.
  const std::uint64_t xof_length = in.ConsumeIntegralInRange<std::uint64_t>(1, 2000);
  const auto x = b2::xof_params<F>()
                     .hash_length(xof_length)
                     .key(std::as_bytes(std::span(f.key)))
                     .salt(std::as_bytes(std::span(f.salt)))
                     .personal(std::as_bytes(std::span(f.personal)));
  const std::vector<std::uint8_t> whole = x.hash(input);
  FUZZ_CHECK(whole.size() == xof_length);
  b2::xof_state<F> xs(x);
  fed(xs, input, cuts);
  FUZZ_CHECK(xs.finalize() == whole);
  const std::uint64_t offset = in.ConsumeIntegralInRange<std::uint64_t>(0, xof_length);
  std::vector<std::byte> part(in.ConsumeIntegralInRange<std::size_t>(0, xof_length - offset));
  xs.finalize(part, offset);
  FUZZ_CHECK(std::equal(
      part.begin(), part.end(), whole.begin() + static_cast<long>(offset),
      [](std::byte a, std::uint8_t b) { return std::to_integer<std::uint8_t>(a) == b; }));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const bool blake2b = in.ConsumeBool();
  const std::vector<std::size_t> cuts = fastblake::fuzz::consume_pieces(in, 12, 1200);
  const std::size_t extra = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::size_t>(0, 70000) : 0;
  // The parameters come first; what is left is the message, stretched by `extra` bytes.
  std::vector<std::uint8_t> message =
      in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 4096));
  for (std::size_t i = 0; i < extra; ++i) message.push_back(static_cast<std::uint8_t>(i * 131 + 7));
  const auto input = std::as_bytes(std::span(message));
  static fastblake::thread_pool pool(3);
  if (blake2b) {
    check_family<b2::family::b>(in, input, cuts, pool);
  } else {
    check_family<b2::family::s>(in, input, cuts, pool);
  }
  return 0;
}
