// fastblake-bench --validate FILE: checks that a JSON artifact is complete. It must name the
// machine, the build and the environment; every row must be named by the scheme of row_name()
// (common.hpp) and have run without error, with its
// repetitions and the mean, median, standard deviation, min, max and p95 over them, and a
// positive throughput.
//
// A small JSON reader is enough here (the artifacts are Google Benchmark's own output), and
// keeps the benchmark free of another dependency.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common.hpp"

namespace fastblake::bench {
namespace {

struct json;
using json_object = std::map<std::string, json>;
using json_array = std::vector<json>;

struct json {
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<json_array>,
               std::shared_ptr<json_object>>
      value;

  const json_object* object() const {
    const auto* p = std::get_if<std::shared_ptr<json_object>>(&value);
    return p != nullptr ? p->get() : nullptr;
  }
  const json_array* array() const {
    const auto* p = std::get_if<std::shared_ptr<json_array>>(&value);
    return p != nullptr ? p->get() : nullptr;
  }
  const std::string* string() const { return std::get_if<std::string>(&value); }
  const double* number() const { return std::get_if<double>(&value); }
};

// Recursive descent over the JSON grammar; throws std::runtime_error at the first mistake.
class reader {
 public:
  explicit reader(std::string text) : text_(std::move(text)) {}

  json document() {
    json j = value();
    skip_space();
    if (at_ != text_.size()) error("text after the document");
    return j;
  }

 private:
  [[noreturn]] void error(const std::string& what) {
    throw std::runtime_error(what + " at byte " + std::to_string(at_));
  }
  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t')) {
      ++at_;
    }
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) error(std::string("expected '") + c + "'");
  }
  bool take_word(const char* word) {
    const std::string w(word);
    if (text_.compare(at_, w.size(), w) != 0) return false;
    at_ += w.size();
    return true;
  }
  json value() {
    skip_space();
    if (at_ == text_.size()) error("unexpected end");
    const char c = text_[at_];
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return {string()};
    if (take_word("true")) return {true};
    if (take_word("false")) return {false};
    if (take_word("null")) return {nullptr};
    return {number()};
  }
  json object() {
    expect('{');
    auto members = std::make_shared<json_object>();
    if (!take('}')) {
      do {
        skip_space();
        std::string key = string();
        expect(':');
        (*members)[key] = value();
      } while (take(','));
      expect('}');
    }
    return {members};
  }
  json array() {
    expect('[');
    auto items = std::make_shared<json_array>();
    if (!take(']')) {
      do {
        items->push_back(value());
      } while (take(','));
      expect(']');
    }
    return {items};
  }
  std::string string() {
    if (at_ >= text_.size() || text_[at_] != '"') error("expected a string");
    std::string s;
    for (++at_; at_ < text_.size() && text_[at_] != '"'; ++at_) {
      if (text_[at_] == '\\') {
        if (++at_ == text_.size()) break;
        const char e = text_[at_];
        if (e == 'u') {
          at_ += 4;  // Kept as '?': the checks never look inside such strings.
          s.push_back('?');
          continue;
        }
        s.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
        continue;
      }
      s.push_back(text_[at_]);
    }
    if (at_ >= text_.size()) error("unterminated string");
    ++at_;
    return s;
  }
  double number() {
    const char* begin = text_.c_str() + at_;
    char* end = nullptr;
    const double d = std::strtod(begin, &end);
    if (end == begin) error("expected a value");
    at_ += static_cast<std::size_t>(end - begin);
    return d;
  }

  std::string text_;
  std::size_t at_ = 0;
};

}  // namespace

int validate_artifact(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fastblake-bench: cannot read %s\n", path);
    return 1;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  json doc;
  try {
    doc = reader(text).document();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fastblake-bench: %s is not JSON: %s\n", path, e.what());
    return 1;
  }
  std::vector<std::string> problems;
  const json_object* root = doc.object();
  const json_object* context = nullptr;
  const json_array* rows = nullptr;
  if (root != nullptr) {
    if (auto c = root->find("context"); c != root->end()) context = c->second.object();
    if (auto b = root->find("benchmarks"); b != root->end()) rows = b->second.array();
  }
  if (context == nullptr || rows == nullptr) {
    std::fprintf(stderr, "fastblake-bench: %s: no context or no benchmarks\n", path);
    return 1;
  }
  for (const char* key :
       {"date", "host_name", "num_cpus", "mhz_per_cpu", "cpu_model", "cpu_flags", "kernel",
        "compiler", "compiler_flags", "commit", "fastblake_version", "detected_backend",
        "available_backends", "default_threads", "environment_overrides"}) {
    if (context->find(key) == context->end())
      problems.push_back(std::string("context lacks ") + key);
  }
  // Per row (run_name): repetitions seen and aggregates seen.
  std::map<std::string, std::size_t> repetitions;
  std::map<std::string, std::set<std::string>> aggregates;
  for (const json& row : *rows) {
    const json_object* r = row.object();
    const auto field = [&](const char* key) -> const json* {
      if (r == nullptr) return nullptr;
      auto it = r->find(key);
      return it == r->end() ? nullptr : &it->second;
    };
    const json* name = field("run_name");
    if (name == nullptr || name->string() == nullptr) {
      problems.emplace_back("a row without run_name");
      continue;
    }
    const std::string& n = *name->string();
    if (std::string problem = row_name_problem(n); !problem.empty()) {
      problems.push_back(std::move(problem));
      continue;
    }
    if (const json* e = field("error_occurred");
        e != nullptr && std::get_if<bool>(&e->value) && std::get<bool>(e->value)) {
      const json* message = field("error_message");
      problems.push_back(n + ": failed: " +
                         (message && message->string() ? *message->string() : std::string("?")));
      continue;
    }
    const json* type = field("run_type");
    if (type != nullptr && type->string() != nullptr && *type->string() == "aggregate") {
      const json* aggregate = field("aggregate_name");
      if (aggregate != nullptr && aggregate->string() != nullptr) {
        aggregates[n].insert(*aggregate->string());
      }
      continue;
    }
    ++repetitions[n];
    const json* speed = field("bytes_per_second");
    if (speed == nullptr || speed->number() == nullptr || !(*speed->number() > 0)) {
      problems.push_back(n + ": a repetition without a positive bytes_per_second");
    }
  }
  for (const auto& [n, count] : repetitions) {
    for (const char* a : {"mean", "median", "stddev", "min", "max", "p95"}) {
      if (aggregates[n].count(a) == 0) problems.push_back(n + ": no " + a);
    }
    (void)count;
  }
  if (repetitions.empty())
    problems.emplace_back("no repetitions: run without --benchmark_report_aggregates_only");
  for (const std::string& p : problems) std::fprintf(stderr, "%s: %s\n", path, p.c_str());
  if (!problems.empty()) return 1;
  std::printf("%s: valid: %zu rows with their repetitions and statistics\n", path,
              repetitions.size());
  return 0;
}

std::string row_name_problem(std::string_view name) {
  static const std::regex scheme = [] {
    std::string classes;
    for (const char* c : timing_classes) classes.append(classes.empty() ? "" : "|").append(c);
    std::string pattern = "(blake3|blake2b|blake2s|blake2bp|blake2sp|sha256|bao)/(";
    pattern.append(classes).append(")/[a-z0-9_-]+(/[1-9][0-9]*t)?(/x[1-9][0-9]*)?/[1-9][0-9]*");
    pattern.append("(/iterations:[0-9]+)?(/real_time)?");
    return std::regex(pattern);
  }();
  if (std::regex_match(name.begin(), name.end(), scheme)) return {};
  std::string problem("row name ");
  problem.append(name).append(
      " is not <family>/<class>/<implementation>[/<threads>t][/x<count>]/<bytes>");
  return problem;
}

}  // namespace fastblake::bench
