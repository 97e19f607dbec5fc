// BLAKE2: known answers (RFC 7693, libb2's outputs for b, s, bp and sp, the BLAKE2X reference's),
// parameter checking, streaming in any split, BLAKE2bp/sp with threads, many messages at once,
// on every backend.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/thread_pool.hpp>

#include "test_support.hpp"

namespace fastblake::test {
namespace {

namespace b2 = fastblake::blake2;

std::vector<std::byte> counting_bytes(std::size_t n) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>(i);
  return v;
}

std::string hex_of(const std::vector<std::uint8_t>& v) {
  return to_hex(std::as_bytes(std::span(v)));
}

// Runs the body once per backend this build and CPU have.
using Blake2Backends = per_backend;

TEST_P(Blake2Backends, Rfc7693Abc) {
  EXPECT_EQ(blake2b::hash("abc").to_hex(),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  EXPECT_EQ(blake2s::hash("abc").to_hex(),
            "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
}

// tests/vectors/blake2_kat.txt: "<variant> <keyed 0|1> <length> <hex>" for inputs 00 01 02 ...
// of lengths 0..255 and the key 00 01 .. of the maximum length, written by libb2
// (tests/tools/blake2_kat.cpp regenerates it; a test checks that it still matches).
std::map<std::tuple<std::string, int, int>, std::string> load_kat() {
  std::ifstream in(FASTBLAKE_BLAKE2_KAT);
  std::map<std::tuple<std::string, int, int>, std::string> kat;
  std::string variant;
  int keyed = 0;
  int length = 0;
  std::string hex;
  while (in >> variant >> keyed >> length >> hex) kat[{variant, keyed, length}] = hex;
  return kat;
}

TEST_P(Blake2Backends, KnownAnswersOfLibb2) {
  const auto kat = load_kat();
  ASSERT_EQ(kat.size(), 4u * 2 * 256);
  const auto input = counting_bytes(256);
  for (int keyed = 0; keyed <= 1; ++keyed) {
    const auto key_b = counting_bytes(keyed != 0 ? 64 : 0);
    const auto key_s = counting_bytes(keyed != 0 ? 32 : 0);
    for (int n = 0; n < 256; ++n) {
      SCOPED_TRACE("keyed " + std::to_string(keyed) + ", length " + std::to_string(n));
      const auto in = std::span(input).first(static_cast<std::size_t>(n));
      EXPECT_EQ(blake2b::params().key(key_b).hash(in).to_hex(), (kat.at({"b", keyed, n})));
      EXPECT_EQ(blake2s::params().key(key_s).hash(in).to_hex(), (kat.at({"s", keyed, n})));
      EXPECT_EQ(blake2bp::params().key(key_b).hash(in).to_hex(), (kat.at({"bp", keyed, n})));
      EXPECT_EQ(blake2sp::params().key(key_s).hash(in).to_hex(), (kat.at({"sp", keyed, n})));
      if (keyed == 0) {
        EXPECT_EQ(blake2b::hash(in).to_hex(), (kat.at({"b", 0, n})));
        EXPECT_EQ(blake2s::hash(in).to_hex(), (kat.at({"s", 0, n})));
        EXPECT_EQ(blake2bp::hash(in).to_hex(), (kat.at({"bp", 0, n})));
        EXPECT_EQ(blake2sp::hash(in).to_hex(), (kat.at({"sp", 0, n})));
      }
    }
  }
}

// From the BLAKE2 reference's testvectors/blake2-kat.json: the 256-byte input 00 01 .. ff,
// outputs of several lengths. (The file's "in" field shows the input cut to the output's
// length; its generator hashes all 256 bytes.)
TEST_P(Blake2Backends, Blake2xKnownAnswers) {
  const auto input = counting_bytes(256);
  struct vector {
    bool xb;
    std::size_t input_length;
    std::size_t key_length;
    const char* out;
  };
  const vector vectors[] = {
      {true, 256, 0,
       "97ef05ca9a81c3ccb8e993d10943be011b8ca3e8307ff65b1ca259d70718f22bed4fe50de5e46d6abdfb3da2"
       "bf9669c6ade7746d44a40ae0655e9e8b4dec1f21c41a9e907fb0b4beafe49ede427c7da456d9c9139530875d"
       "dcd9e6e1602480e63ab8426fcafa6eaa3f4a68e3e04d53b64312e25e3339d0084a987b53c11dae4cab709114"
       "1018f9f1780753e87aee6317b9e249135ca32d26289783ca2af99a2d29ef35b92d4f6541e5e337b857162664"
       "41867d89f0af4b855ce0db3fcd0b7b71d8491d43023ef06586070e167d2dcd90ce9aee71f9043913f459"},
      {true, 256, 64,
       "dbff4a91961d07c8cbdfa91a99d7d2d3b880fcfc21bded8bf496bfb7e21af270a6a17b04cc903974d03c28d3"
       "44acbfd46ff4bfa6222dab266641a5fdd89eb6b01be39260a48343355c7052d16b48e47afe352b92e350637f"
       "17e2f1cbec0886c312a25fdcadff87a5ad430ccb9a553e6446889fee472bfddcbd87133bccd50b55e8d172a8"
       "2a22da5bed68c922dfe7ffd7a3567191a8dd2f3e1c9b08e697a625d779fc62559b89139e8137cf7c7bf5f4e4"
       "45b6312072c1e13f3ed05bcb0e0b547683c94328e11b3e2155c8dcfe48bb231a9687a2540f9da9364cc4d41b"
       "6989e43f4e3a850ea9b359a01bdcee2ffd70b3ef17d44626aa43d05a570de333301d4ffc"},
      {false, 256, 32,
       "0da61ba5753b2164848fa9f0b799d6a269832414e36b32e629e255541381e329f811fadd8192b38cc9d911f8"
       "a16296ecb4dcc6212321d2d66e188437c426ba12f98cbaaecb07eee356f49752b0ac37d8781f55b4b5690f34"
       "09deb3"},
      {false, 256, 32,
       "fa10df149022c82c52a38547408de7f9116516a1cf38d4ab6d8bfe8249d638d240202241a2775a524675f86c"
       "8e468ddd08ad5edb00894ba406f62c49d98153b97954cecc2e877d14a8c8adae7a4fc8580c19c1b58cf2844e"
       "f39c107d"},
  };
  for (const vector& v : vectors) {
    const std::string want = v.out;
    const std::size_t length = want.size() / 2;
    SCOPED_TRACE(std::string(v.xb ? "xb" : "xs") + " output " + std::to_string(length));
    const auto in = std::span(input).first(v.input_length);
    const auto key = counting_bytes(v.key_length);
    if (v.xb) {
      const auto p = blake2xb::params().hash_length(length).key(key);
      EXPECT_EQ(hex_of(p.hash(in)), want);
      // Any range of the output on its own.
      std::vector<std::byte> part(length - 70);
      p.to_state().update(in).finalize(part, 33);
      EXPECT_EQ(to_hex(part), want.substr(66, 2 * part.size()));
    } else {
      const auto p = blake2xs::params().hash_length(length).key(key);
      EXPECT_EQ(hex_of(p.hash(in)), want);
      std::vector<std::byte> part(length - 40);
      p.to_state().update(in).finalize(part, 17);
      EXPECT_EQ(to_hex(part), want.substr(34, 2 * part.size()));
    }
  }
}

template <class State>
std::string hash_in_pieces(State s, std::span<const std::byte> data, random_source& rng) {
  std::size_t at = 0;
  while (at < data.size()) {
    const std::size_t piece = std::min<std::size_t>(data.size() - at, rng.below(700));
    s.update(data.subspan(at, piece));
    at += piece;
  }
  EXPECT_EQ(s.count(), data.size());
  return s.finalize().to_hex();
}

TEST_P(Blake2Backends, AnySplitGivesTheOneShotHash) {
  random_source rng(test_seed() + 21);
  SCOPED_TRACE("seed " + std::to_string(test_seed()));
  const auto data = rng.bytes(10000);
  for (std::size_t n : {0,   1,   63,  64,  65,  127,  128,  129,  511,  512, 513,
                        895, 896, 897, 960, 961, 1023, 1024, 1025, 4096, 9999}) {
    SCOPED_TRACE("length " + std::to_string(n));
    const auto in = std::span(data).first(n);
    const auto key = rng.bytes(1 + rng.below(32));
    for (int round = 0; round < 3; ++round) {
      EXPECT_EQ(hash_in_pieces(blake2b::params().key(key).to_state(), in, rng),
                blake2b::params().key(key).hash(in).to_hex());
      EXPECT_EQ(hash_in_pieces(blake2s::params().key(key).to_state(), in, rng),
                blake2s::params().key(key).hash(in).to_hex());
      EXPECT_EQ(hash_in_pieces(blake2bp::params().key(key).to_state(), in, rng),
                blake2bp::params().key(key).hash(in).to_hex());
      EXPECT_EQ(hash_in_pieces(blake2sp::params().key(key).to_state(), in, rng),
                blake2sp::params().key(key).hash(in).to_hex());
    }
  }
}

TEST_P(Blake2Backends, ParallelLeavesOnThreadsMatch) {
  random_source rng(test_seed() + 22);
  const auto data = rng.bytes((1u << 20) + 777);
  for (std::size_t threads : {1, 2, 3}) {
    thread_pool pool(threads);
    for (std::size_t n : {std::size_t{0}, std::size_t{70000}, data.size()}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, length " + std::to_string(n));
      const auto in = std::span(data).first(n);
      blake2bp::state bp;
      bp.update(in.first(n / 3), pool).update(in.subspan(n / 3), pool);
      EXPECT_EQ(bp.finalize(), blake2bp::state().update(in).finalize());
      blake2sp::state sp;
      sp.update(in.first(n / 3), pool).update(in.subspan(n / 3), pool);
      EXPECT_EQ(sp.finalize(), blake2sp::state().update(in).finalize());
    }
  }
}

// Empty inputs with no address at all (a default span), keyed or not: found by the fuzzer,
// where libc's memcpy from nullptr was undefined behaviour.
TEST_P(Blake2Backends, ManyMessagesWithEmptyInputsWithoutAddress) {
  blake2b::params keyed;
  keyed.key("key");
  std::vector<blake2b::digest> out(3);
  const std::vector<blake2b::job> jobs = {
      {{}, &out[0], nullptr}, {{}, &out[1], &keyed}, {{}, &out[2], nullptr}};
  blake2b::hash_many(jobs);
  EXPECT_EQ(out[0], blake2b::hash(std::string_view()));
  EXPECT_EQ(out[1], keyed.hash(std::string_view()));
  EXPECT_EQ(out[2], out[0]);
}

TEST_P(Blake2Backends, ManyMessagesOfMixedLengthsAndParameters) {
  random_source rng(test_seed() + 23);
  for (std::size_t count : {1, 2, 5, 17, 40}) {
    SCOPED_TRACE(std::to_string(count) + " jobs");
    std::vector<std::vector<std::byte>> inputs;
    std::vector<blake2b::params> pb;
    std::vector<blake2s::params> ps;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t n = rng.below(4) == 0 ? rng.below(3000) : rng.below(300);
      inputs.push_back(rng.bytes(n));
      blake2b::params b;
      blake2s::params s;
      if (rng.below(2) == 0) {
        b.key(rng.bytes(1 + rng.below(64)));
        s.key(rng.bytes(1 + rng.below(32)));
      }
      b.hash_length(1 + rng.below(64)).personal(rng.bytes(16)).last_node(rng.below(3) == 0);
      s.hash_length(1 + rng.below(32)).salt(rng.bytes(8)).node_offset(rng.below(1000));
      pb.push_back(b);
      ps.push_back(s);
    }
    std::vector<blake2b::digest> out_b(count);
    std::vector<blake2s::digest> out_s(count);
    std::vector<blake2b::job> jobs_b;
    std::vector<blake2s::job> jobs_s;
    for (std::size_t i = 0; i < count; ++i) {
      // Every third job with the default parameters.
      jobs_b.push_back({inputs[i], &out_b[i], i % 3 == 0 ? nullptr : &pb[i]});
      jobs_s.push_back({inputs[i], &out_s[i], i % 3 == 0 ? nullptr : &ps[i]});
    }
    blake2b::hash_many(jobs_b);
    blake2s::hash_many(jobs_s);
    for (std::size_t i = 0; i < count; ++i) {
      SCOPED_TRACE("job " + std::to_string(i) + " of " + std::to_string(inputs[i].size()) +
                   " bytes");
      EXPECT_EQ(out_b[i], i % 3 == 0 ? blake2b::hash(inputs[i]) : pb[i].hash(inputs[i]));
      EXPECT_EQ(out_s[i], i % 3 == 0 ? blake2s::hash(inputs[i]) : ps[i].hash(inputs[i]));
    }

    // update_many, twice, from states that already hold a part block, against update().
    std::vector<blake2b::state> many_b;
    std::vector<blake2b::state> one_b;
    std::vector<blake2s::state> many_s;
    std::vector<blake2s::state> one_s;
    for (std::size_t i = 0; i < count; ++i) {
      const auto head = rng.bytes(rng.below(200));
      many_b.push_back(pb[i].to_state().update(head));
      one_b.push_back(pb[i].to_state().update(head));
      many_s.push_back(ps[i].to_state().update(head));
      one_s.push_back(ps[i].to_state().update(head));
    }
    std::vector<blake2b::state*> pointers_b;
    std::vector<blake2s::state*> pointers_s;
    for (std::size_t i = 0; i < count; ++i) {
      pointers_b.push_back(&many_b[i]);
      pointers_s.push_back(&many_s[i]);
    }
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<std::span<const std::byte>> spans;
      for (std::size_t i = 0; i < count; ++i) {
        const auto& in = inputs[(i + pass) % count];
        spans.emplace_back(in);
        one_b[i].update(in);
        one_s[i].update(in);
      }
      blake2b::update_many(pointers_b, spans);
      blake2s::update_many(pointers_s, spans);
    }
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(many_b[i].finalize(), one_b[i].finalize());
      EXPECT_EQ(many_b[i].count(), one_b[i].count());
      EXPECT_EQ(many_s[i].finalize(), one_s[i].finalize());
    }
  }
}

TEST_P(Blake2Backends, ManyMessagesOnThreads) {
  random_source rng(test_seed() + 24);
  std::vector<std::vector<std::byte>> inputs;
  for (int i = 0; i < 70; ++i) inputs.push_back(rng.bytes(rng.below(9000)));
  for (std::size_t threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    thread_pool pool(threads);
    std::vector<blake2b::digest> out_b(inputs.size());
    std::vector<blake2s::digest> out_s(inputs.size());
    std::vector<blake2b::job> jobs_b;
    std::vector<blake2s::job> jobs_s;
    std::vector<blake2b::state> states;
    std::vector<blake2b::state*> pointers;
    std::vector<std::span<const std::byte>> spans;
    states.reserve(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      jobs_b.push_back({inputs[i], &out_b[i]});
      jobs_s.push_back({inputs[i], &out_s[i]});
      states.push_back(blake2b::state().update(inputs[(i + 1) % inputs.size()]));
      spans.emplace_back(inputs[i]);
    }
    for (auto& s : states) pointers.push_back(&s);
    blake2b::hash_many(jobs_b, pool);
    blake2s::hash_many(jobs_s, pool);
    blake2b::update_many(pointers, spans, pool);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_EQ(out_b[i], blake2b::hash(inputs[i]));
      EXPECT_EQ(out_s[i], blake2s::hash(inputs[i]));
      EXPECT_EQ(
          states[i].finalize(),
          blake2b::state().update(inputs[(i + 1) % inputs.size()]).update(inputs[i]).finalize());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(, Blake2Backends, ::testing::ValuesIn(backend_names()),
                         [](const ::testing::TestParamInfo<std::string>& backend) {
                           return backend.param;
                         });

TEST(Blake2Params, InvalidValuesThrowWithTheField) {
  const auto message_of = [](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message_of([] { blake2b::params().hash_length(0); }),
            "blake2b: hash_length must be 1 to 64, not 0");
  EXPECT_EQ(message_of([] { blake2s::params().hash_length(33); }),
            "blake2s: hash_length must be 1 to 32, not 33");
  EXPECT_EQ(message_of([] { blake2b::params().key(std::string(65, 'k')); }),
            "blake2b: key length must be 0 to 64, not 65");
  EXPECT_EQ(message_of([] { blake2s::params().salt("123456789"); }),
            "blake2s: salt length must be 0 to 8, not 9");
  EXPECT_EQ(message_of([] { blake2b::params().personal(std::string(17, 'p')); }),
            "blake2b: personal length must be 0 to 16, not 17");
  EXPECT_EQ(message_of([] { blake2s::params().node_offset(std::uint64_t{1} << 48); }),
            "blake2s: node_offset must be 0 to 281474976710655, not 281474976710656");
  EXPECT_EQ(message_of([] { blake2b::params().max_depth(0); }),
            "blake2b: max_depth must be 1 to 255, not 0");
  EXPECT_EQ(message_of([] { blake2b::params().fanout(256); }),
            "blake2b: fanout must be 0 to 255, not 256");
  EXPECT_EQ(message_of([] { blake2s::params().inner_hash_length(33); }),
            "blake2s: inner_hash_length must be 0 to 32, not 33");
  EXPECT_EQ(message_of([] { blake2bp::params().hash_length(65); }),
            "blake2b: hash_length must be 1 to 64, not 65");
  EXPECT_EQ(message_of([] { blake2xs::params().hash_length(65535); }),
            "blake2s: xof hash_length must be 1 to 65534, not 65535");
  EXPECT_EQ(message_of([] { blake2xb::params().hash_length(0); }),
            "blake2b: xof hash_length must be 1 to 4294967294, not 0");
  EXPECT_THROW(blake2xs::params().hash_length(10).to_state().finalize(
                   std::as_writable_bytes(std::span<char>(std::vector<char>(5).data(), 5)), 6),
               std::out_of_range);
}

TEST(Blake2Many, UpdateManyRefusesMismatchedSpans) {
  blake2b::state a, b;
  blake2b::state* states[] = {&a, &b};
  const std::string text = "abc";
  const std::span<const std::byte> one[] = {std::as_bytes(std::span(text))};
  const auto before = a.finalize();
  EXPECT_THROW(blake2b::update_many(states, one), std::invalid_argument);
  thread_pool pool(2);
  EXPECT_THROW(blake2b::update_many(states, one, pool), std::invalid_argument);
  blake2s::state c;
  blake2s::state* s_states[] = {&c};
  EXPECT_THROW(blake2s::update_many(s_states, std::span<const std::span<const std::byte>>()),
               std::invalid_argument);
  EXPECT_EQ(a.finalize(), before) << "no state touched";
  EXPECT_EQ(b.finalize(), before);
}

TEST(Blake2Params, SettersChainAndGettersReadBack) {
  const auto p = blake2b::params()
                     .hash_length(20)
                     .key("secret")
                     .salt("salt")
                     .personal("person")
                     .fanout(0)
                     .max_depth(255)
                     .max_leaf_length(4096)
                     .node_offset(7)
                     .node_depth(1)
                     .inner_hash_length(64)
                     .last_node();
  EXPECT_EQ(p.hash_length(), 20u);
  EXPECT_EQ(p.key().size(), 6u);
  EXPECT_EQ(p.salt()[3], 't');
  EXPECT_EQ(p.salt()[4], 0);
  EXPECT_EQ(p.personal()[0], 'p');
  EXPECT_EQ(p.fanout(), 0u);
  EXPECT_EQ(p.max_depth(), 255u);
  EXPECT_EQ(p.max_leaf_length(), 4096u);
  EXPECT_EQ(p.node_offset(), 7u);
  EXPECT_EQ(p.node_depth(), 1u);
  EXPECT_EQ(p.inner_hash_length(), 64u);
  EXPECT_TRUE(p.last_node());
  EXPECT_EQ(p.hash("x").size(), 20u);
  // Each parameter changes the hash.
  const std::string base = p.hash("x").to_hex();
  EXPECT_NE(blake2b::params(p).node_offset(8).hash("x").to_hex(), base);
  EXPECT_NE(blake2b::params(p).last_node(false).hash("x").to_hex(), base);
  EXPECT_NE(blake2b::params(p).max_leaf_length(0).hash("x").to_hex(), base);
  // set_last_node on a state is the parameter.
  EXPECT_EQ(blake2b::params(p).last_node(false).to_state().update("x").set_last_node().finalize(),
            p.hash("x"));
}

TEST(Blake2Digest, ComparesLengthAndBytes) {
  const auto a = blake2b::params().hash_length(32).hash("a");
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.as_bytes().size(), 32u);
  EXPECT_EQ(a, blake2b::params().hash_length(32).hash("a"));
  EXPECT_FALSE(a == blake2b::params().hash_length(32).hash("b"));
  EXPECT_FALSE(a == blake2b::params().hash_length(31).hash("a"));
  EXPECT_EQ(a.to_hex().size(), 64u);
}

}  // namespace
}  // namespace fastblake::test
