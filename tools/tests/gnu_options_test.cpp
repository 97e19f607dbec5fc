// tools::gnu_options against what glibc's getopt_long does with the same command lines (the
// b2sum suite also runs GNU's b2sum beside ours on its option cases).
#include "../common/gnu_options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifdef __GLIBC__
#include <getopt.h>
#endif

namespace {

constexpr std::array<tools::long_option, 5> long_options = {{
    {"length", true, 'l'},
    {"status", false, 1000},
    {"strict", false, 1001},
    {"tag", false, 1002},
    {"text", false, 't'},
}};

// Every option as "c", "c=argument" or "?refusal", then "operands:" and the operands.
std::vector<std::string> read(std::vector<std::string> words) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  tools::gnu_options options(static_cast<int>(argv.size()), argv.data(), "a:bl:t", long_options);
  std::vector<std::string> seen;
  for (int id; (id = options.next()) != tools::gnu_options::end_of_options;) {
    if (id == tools::gnu_options::refused) {
      seen.push_back("?" + options.refusal());
      break;
    }
    std::string text = id < 256 ? std::string(1, static_cast<char>(id)) : std::to_string(id);
    if (options.argument() != nullptr) text += "=" + std::string(options.argument());
    seen.push_back(text);
  }
  seen.emplace_back("operands:");
  for (const std::string& o : options.operands()) seen.push_back(o);
  return seen;
}

using words = std::vector<std::string>;

void set_posixly_correct(bool set) {
#ifdef _WIN32
  ::_putenv_s("POSIXLY_CORRECT", set ? "1" : "");  // "" removes it
#else
  set ? ::setenv("POSIXLY_CORRECT", "1", 1) : ::unsetenv("POSIXLY_CORRECT");
#endif
}

TEST(GnuOptions, OptionsAmongOperandsInTheirOrder) {
  EXPECT_EQ(read({"b2sum", "x", "-b", "y", "--tag", "-"}),
            (words{"b", "1002", "operands:", "x", "y", "-"}));
}

TEST(GnuOptions, DoubleDashEndsOptions) {
  EXPECT_EQ(read({"b2sum", "-b", "--", "-t", "--tag"}), (words{"b", "operands:", "-t", "--tag"}));
}

TEST(GnuOptions, PosixlyCorrectEndsOptionsAtTheFirstOperand) {
  set_posixly_correct(true);
  const words seen = read({"b2sum", "-b", "x", "-t", "-"});
  set_posixly_correct(false);
  EXPECT_EQ(seen, (words{"b", "operands:", "x", "-t", "-"}));
}

TEST(GnuOptions, ShortOptionsClusterAndTakeTheirArgumentFromTheRestOrTheNextWord) {
  EXPECT_EQ(read({"b2sum", "-btl8", "-l", "-x", "-a", "--", "f"}),
            (words{"b", "t", "l=8", "l=-x", "a=--", "operands:", "f"}));
}

TEST(GnuOptions, LongOptionsByAnyUnambiguousPrefixAnExactNameWinning) {
  EXPECT_EQ(read({"b2sum", "--len=8", "--length", "16", "--ta", "--te", "--text"}),
            (words{"l=8", "l=16", "1002", "t", "t", "operands:"}));
  EXPECT_EQ(read({"b2sum", "--len="}), (words{"l=", "operands:"}));
}

TEST(GnuOptions, RefusalsInGlibcsWords) {
  EXPECT_EQ(
      read({"b2sum", "--st", "x"}),
      (words{"?option '--st' is ambiguous; possibilities: '--status' '--strict'", "operands:"}));
  EXPECT_EQ(read({"b2sum", "--t=1"}),
            (words{"?option '--t=1' is ambiguous; possibilities: '--tag' '--text'", "operands:"}));
  EXPECT_EQ(read({"b2sum", "--bogus=1"}), (words{"?unrecognized option '--bogus=1'", "operands:"}));
  EXPECT_EQ(read({"b2sum", "--sta=1"}),
            (words{"?option '--status' doesn't allow an argument", "operands:"}));
  EXPECT_EQ(read({"b2sum", "--len"}),
            (words{"?option '--length' requires an argument", "operands:"}));
  EXPECT_EQ(read({"b2sum", "-bQ"}), (words{"b", "?invalid option -- 'Q'", "operands:"}));
  EXPECT_EQ(read({"b2sum", "-:"}), (words{"?invalid option -- ':'", "operands:"}));
  EXPECT_EQ(read({"b2sum", "-b-"}), (words{"b", "?invalid option -- '-'", "operands:"}));
  EXPECT_EQ(read({"b2sum", "x", "-l"}),
            (words{"?option requires an argument -- 'l'", "operands:", "x"}));
}

#ifdef __GLIBC__
// What glibc's getopt_long makes of the same words, as read() writes it (its refusals as "?",
// their words being checked by the b2sum suite against GNU's b2sum).
std::vector<std::string> read_with_glibc(std::vector<std::string> command_line) {
  static const struct option glibc_options[] = {
      {"length", required_argument, nullptr, 'l'}, {"status", no_argument, nullptr, 1000},
      {"strict", no_argument, nullptr, 1001},      {"tag", no_argument, nullptr, 1002},
      {"text", no_argument, nullptr, 't'},         {nullptr, 0, nullptr, 0}};
  std::vector<char*> argv;
  for (std::string& w : command_line) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(command_line.size());
  optind = 0;  // starts over, rereading its GNU extensions
  opterr = 0;
  std::vector<std::string> seen;
  for (int id; (id = getopt_long(argc, argv.data(), "a:bl:t", glibc_options, nullptr)) != -1;) {
    if (id == '?') {
      seen.emplace_back("?");
      seen.emplace_back("operands:");
      return seen;
    }
    std::string text = id < 256 ? std::string(1, static_cast<char>(id)) : std::to_string(id);
    if (optarg != nullptr) text += "=" + std::string(optarg);
    seen.push_back(text);
  }
  seen.emplace_back("operands:");
  for (int i = optind; i < argc; ++i) seen.emplace_back(argv[i]);
  return seen;
}

TEST(GnuOptions, ReadsRandomCommandLinesAsGlibcDoes) {
  const std::vector<std::string> pool = {
      "-b",      "-t",      "-l",        "8",        "-l8", "-bt",   "-btl",       "-tl16",
      "-a",      "x",       "y",         "-",        "--",  "--len", "--length=8", "--len=",
      "--st",    "--sta",   "--status",  "--strict", "--t", "--ta",  "--te",       "--text",
      "--tag=1", "--bogus", "--bogus=2", "-Q",       "-:",  "-b-",   "--=x"};
  std::mt19937 random(20261207);
  for (int round = 0; round < 20000; ++round) {
    std::vector<std::string> command_line = {"b2sum"};
    const int count = static_cast<int>(random() % 7);
    for (int k = 0; k < count; ++k) command_line.push_back(pool[random() % pool.size()]);
    std::vector<std::string> ours = read(command_line);
    // Past a refusal, only that there was one: the operands then are what was read so far.
    if (auto refusal = std::find_if(ours.begin(), ours.end(),
                                    [](const std::string& w) { return w.front() == '?'; });
        refusal != ours.end()) {
      *refusal = "?";
      ours.erase(refusal + 1, ours.end());
      ours.emplace_back("operands:");
    }
    std::string line;
    for (const std::string& w : command_line) line += w + " ";
    ASSERT_EQ(ours, read_with_glibc(command_line)) << line;
  }
}
#endif

}  // namespace
