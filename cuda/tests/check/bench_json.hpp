// The device benchmark's JSON: Google Benchmark's layout (what bench/report.py and
// fastblake-bench --validate read), written without Google Benchmark, which a bare GPU
// machine lacks. One "iteration" entry per repetition, and the median as an aggregate entry,
// real_time in ns and bytes_per_second; a row that failed has one entry with its error.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace fastblake::bench {

struct bench_row {
  std::string name;  // the harness's row name (bench/common.hpp's row_name())
  std::size_t bytes;
  std::vector<double> ns;  // one time a repetition
  std::string error;       // empty unless the row failed
};

inline std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(c) >= 0x20) out.push_back(c);
  }
  return out;
}

inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// `context`: (key, value) pairs for the context object, beside the executable and the
/// repetitions (bench/report.py's machine line reads cpu_model, num_cpus, compiler, commit,
/// detected_backend and date).
inline void write_bench_json(std::ostream& out,
                             const std::vector<std::pair<std::string, std::string>>& context,
                             int repetitions, const std::vector<bench_row>& rows) {
  out << "{\n  \"context\": {\"executable\": \"fastblake-gpu-bench\", ";
  for (const auto& [key, value] : context) {
    out << "\"" << json_escape(key) << "\": \"" << json_escape(value) << "\", ";
  }
  out << "\"repetitions\": " << repetitions << "},\n  \"benchmarks\": [";
  bool first = true;
  for (const bench_row& r : rows) {
    const std::string run_name = json_escape(r.name) + "/real_time";
    const auto entry = [&](double ns, const char* run_type, const char* aggregate) {
      out << (first ? "\n" : ",\n") << "    {\"name\": \"" << run_name
          << (aggregate ? std::string("_") + aggregate : std::string()) << "\", "
          << "\"run_name\": \"" << run_name << "\", \"run_type\": \"" << run_type << "\", ";
      if (aggregate) out << "\"aggregate_name\": \"" << aggregate << "\", ";
      out << "\"iterations\": 1, \"real_time\": " << ns << ", \"time_unit\": \"ns\", "
          << "\"bytes_per_second\": " << (ns > 0 ? 1e9 * static_cast<double>(r.bytes) / ns : 0);
      if (!r.error.empty()) {
        out << ", \"error_occurred\": true, \"error_message\": \"" << json_escape(r.error) << "\"";
      }
      out << "}";
      first = false;
    };
    if (r.ns.empty()) {
      entry(0, "iteration", nullptr);
      continue;
    }
    for (double ns : r.ns) entry(ns, "iteration", nullptr);
    entry(median_of(r.ns), "aggregate", "median");
  }
  out << "\n  ]\n}\n";
}

}  // namespace fastblake::bench
