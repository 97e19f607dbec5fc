// The tools as functions: b3sum::run and b2sum::run called in this process, their standard
// output and error captured, one call after another (each starts afresh, after a usage error
// too), and their -j batches in the order of the command line.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fastblake/blake2.hpp>
#include <fastblake/blake3.hpp>

#include "../b2sum/run.hpp"
#include "../b3sum/run.hpp"
#include "../common/system.hpp"
#include "scratch_dir.hpp"

namespace fastblake::test {
namespace {

namespace fs = std::filesystem;

struct outcome {
  int status;
  std::string out;
  std::string err;
};

// Descriptor fd goes to a temporary file for the call; its contents come back.
class capture {
 public:
  explicit capture(int fd) : fd_(fd), saved_(::dup(fd)) {
    std::FILE* f = std::tmpfile();
    file_ = f;
    ::dup2(::fileno(f), fd);
  }
  std::string finish() {
    std::fflush(nullptr);
    ::dup2(saved_, fd_);
    ::close(saved_);
    std::string text;
    std::rewind(file_);
    for (int c; (c = std::fgetc(file_)) != EOF;) text.push_back(static_cast<char>(c));
    std::fclose(file_);
    return text;
  }

 private:
  int fd_;
  int saved_;
  std::FILE* file_;
};

outcome call(int (*run)(int, char**), std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  capture out(STDOUT_FILENO);
  capture err(STDERR_FILENO);
  const int status = run(static_cast<int>(args.size()), argv.data());
  std::string e = err.finish();
  return {status, out.finish(), std::move(e)};
}

// Names with '/' everywhere (Windows takes it too): as the tools print them, unescaped.
class ToolsRun : public scratch_dir_test {
 protected:
  std::string file(const std::string& name, std::string_view contents) {
    return write(name, contents).generic_string();
  }
};

// What separates b2sum's sum from the name: GNU's '*' (binary mode) is the default on Windows.
const std::string b2_separator = tools::files_have_text_mode ? " *" : "  ";

std::string b3_hex(const std::string& s) { return blake3::hash(std::string_view(s)).to_hex(); }
std::string b2_hex(const std::string& s) { return blake2b::hash(std::string_view(s)).to_hex(); }

TEST_F(ToolsRun, B3sumHashesAndStartsAfreshEachCall) {
  const std::string a = file("a", "abc");
  const outcome first = call(b3sum::run, {"b3sum", a});
  EXPECT_EQ(first.status, 0) << first.err;
  EXPECT_EQ(first.out, b3_hex("abc") + "  " + a + "\n");
  const outcome bad = call(b3sum::run, {"b3sum", "--no-such-option"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_NE(bad.err.find("unexpected argument '--no-such-option'"), std::string::npos) << bad.err;
  const outcome again = call(b3sum::run, {"b3sum", "--length", "8", a});
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.out, b3_hex("abc").substr(0, 16) + "  " + a + "\n");
  const outcome version = call(b3sum::run, {"b3sum", "--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("b3sum ", 0), 0u) << version.out;
}

TEST_F(ToolsRun, B2sumHashesChecksAndStartsAfreshEachCall) {
  const std::string a = file("a", "abc");
  const outcome sum = call(b2sum::run, {"b2sum", a});
  EXPECT_EQ(sum.status, 0) << sum.err;
  EXPECT_EQ(sum.out, b2_hex("abc") + b2_separator + a + "\n");
  const outcome bad = call(b2sum::run, {"b2sum", "--no-such-option"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("Try 'b2sum --help'"), std::string::npos) << bad.err;
  // getopt_long starts over: the same option is parsed again.
  const std::string sums = file("sums", sum.out);
  const outcome check = call(b2sum::run, {"b2sum", "-c", sums});
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_EQ(check.out, a + ": OK\n");
  const outcome missing = call(b2sum::run, {"b2sum", (dir_ / "none").generic_string()});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("No such file or directory"), std::string::npos) << missing.err;
  const outcome s = call(b2sum::run, {"b2sum", "-a", "blake2sp", "-l", "128", a});
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(s.out, blake2sp::params().hash_length(16).hash(std::string_view("abc")).to_hex() +
                       b2_separator + a + "\n");
}

// Batches hash at once and report in the command line's order, a missing file in its place.
TEST_F(ToolsRun, JobsKeepTheOrderOfTheCommandLine) {
  std::vector<std::string> names;
  std::vector<std::string> contents;
  for (int i = 0; i < 40; ++i) {
    contents.push_back(
        std::string(static_cast<std::size_t>(i) * 997, static_cast<char>('a' + i % 26)));
    names.push_back(file("f" + std::to_string(i), contents.back()));
  }
  names.insert(names.begin() + 17, (dir_ / "missing").generic_string());
  for (const auto run : {b3sum::run, b2sum::run}) {
    std::vector<std::string> args = {"sum", "-j", "3"};
    args.insert(args.end(), names.begin(), names.end());
    const outcome r = call(run, args);
    EXPECT_EQ(r.status, 1);
    std::string expected;
    for (std::size_t i = 0, k = 0; i < names.size(); ++i) {
      if (i == 17) continue;
      const std::string& c = contents[k++];
      expected +=
          (run == b3sum::run ? b3_hex(c) + "  " : b2_hex(c) + b2_separator) + names[i] + "\n";
    }
    EXPECT_EQ(r.out, expected);
    EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace fastblake::test
