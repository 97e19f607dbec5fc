// b3sum's --check (check.hpp): each line of a check file parsed (check_line.hpp), its file
// hashed, and its verdict printed as the official b3sum prints it.
#include "check.hpp"

#include <cerrno>
#include <optional>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "../common/io.hpp"
#include "check_line.hpp"

namespace b3sum::detail {
namespace {

namespace b3 = fastblake::blake3;

void verdict(const context& ctx, const std::string& line) {
  if (ctx.opt.checking.status) return;
  out.write(line + "\n");
  check_output();
}

// The verdict on one well-formed line of a check file, given what hashing its file gave.
void check_verdict(const context& ctx, const b3sum::check_entry& entry,
                   std::optional<b3::output_reader>& reader, const std::error_code& ec,
                   const std::string& error, tools::check_counts& counts) {
  const tools::check_options& o = ctx.opt.checking;
  if (ctx.progress) ctx.progress->clear();
  if (!reader) {
    if (o.ignore_missing && ec == std::errc::no_such_file_or_directory) return;
    ++counts.unreadable;
    if (o.status) {
      to_stderr("b3sum: " + lossy_utf8(entry.path) + ": " + error + "\n");
    } else {
      verdict(ctx, entry.shown + ": FAILED (" + error + ")");
    }
    return;
  }
  // From --seek on, as the official compares: with any seek but 0 a sum made without one fails.
  reader->seek(ctx.seek);
  std::vector<std::uint8_t> found(entry.expected.size());
  reader->fill(std::span(found));
  if (found == entry.expected) {
    ++counts.matched;
    if (!o.quiet) verdict(ctx, entry.shown + ": OK");
  } else {
    ++counts.mismatched;
    verdict(ctx, entry.shown + ": FAILED");
  }
}

// Checks lines of a check file in order, printing their verdicts, and counts them. With a
// distributor, their files (standard input aside) are hashed through it all at once.
// `where`: the check file as GNU names it in --warn's messages; `line_number`: the first
// line's.
struct check_position {
  std::string file;
  std::size_t line_number = 0;
};

void check_lines(const context& ctx, const std::vector<std::string>& lines, check_position where,
                 tools::check_counts& counts) {
  std::vector<std::variant<b3sum::check_entry, const char*>> parsed;
  std::vector<std::string> elsewhere;
  for (const std::string& line : lines) {
    parsed.push_back(b3sum::parse_check_line(line));
    const auto* entry = std::get_if<b3sum::check_entry>(&parsed.back());
    if (ctx.elsewhere != nullptr && entry != nullptr && entry->path != "-") {
      elsewhere.push_back(entry->path);
    }
  }
  std::vector<std::optional<b3::file_result>> hashed(elsewhere.size());
  if (!elsewhere.empty()) {
    ctx.elsewhere->hash(
        elsewhere, ctx.spec, ctx.file.pool, ctx.file.strategy, progress_callback(ctx),
        [&](std::size_t i, b3::file_result&& r) { hashed[i].emplace(std::move(r)); });
  }
  std::size_t next_hashed = 0;
  for (const auto& line : parsed) {
    ++where.line_number;
    if (const auto* why = std::get_if<const char*>(&line)) {
      ++counts.malformed;
      if (!ctx.opt.checking.status) {
        out.flush();
        // --warn: GNU's message for the line, in place of the official's reason.
        to_stderr(ctx.opt.checking.warn
                      ? "b3sum: " + where.file + ": " + std::to_string(where.line_number) +
                            ": improperly formatted BLAKE3 checksum line\n"
                      : std::string("b3sum: ") + *why + "\n");
      }
      continue;
    }
    ++counts.well_formed;
    const auto& entry = std::get<b3sum::check_entry>(line);
    std::error_code ec;
    std::string error;
    std::optional<b3::output_reader> reader;
    if (ctx.elsewhere != nullptr && entry.path != "-") {
      b3::file_result& r = *hashed[next_hashed++];
      if (ctx.progress) ctx.progress->finish();
      ec = r.error;
      if (ec) {
        error = os_error(ec);
      } else {
        reader = r.output;
      }
    } else {
      reader = hash_input(ctx, entry.path, ec, error);
    }
    check_verdict(ctx, entry, reader, ec, error, counts);
  }
}

}  // namespace

// Checks every line of one check file. A check file that cannot be opened or read ends the
// run, as in the official b3sum. Returns whether it passed.
bool check_file(const context& ctx, const std::string& name, tools::check_counts& run_counts) {
  const int fd = name == "-" ? tools::standard_input : tools::open_for_reading(name);
  if (fd < 0) fatal(os_error(std::error_code(errno, std::generic_category())));
  tools::line_reader in(fd);
  tools::check_counts counts;
  // One line at a time, as the official b3sum, unless a distributor hashes many at once.
  const std::size_t group = ctx.elsewhere != nullptr ? distributed_batch : 1;
  std::vector<std::string> lines;
  bool utf8 = true;
  check_position where{name == "-" ? std::string("standard input") : lossy_utf8(name), 0};
  for (std::string line; in.next(line);) {
    // The official reads the check file as text: the lines before one that is not UTF-8 are
    // checked, and that one ends the run.
    if (lossy_utf8(line) != line) {
      utf8 = false;
      break;
    }
    // A line past the reader's limit is read through; it could not name a file to open.
    lines.push_back(in.last_too_long() ? std::string("line too long\n") : std::move(line));
    if (lines.size() == group) {
      check_lines(ctx, lines, where, counts);
      where.line_number += lines.size();
      lines.clear();
    }
  }
  if (!lines.empty()) check_lines(ctx, lines, where, counts);
  if (!utf8) fatal("stream did not contain valid UTF-8");
  if (in.error() != 0) fatal(os_error(std::error_code(in.error(), std::generic_category())));
  if (in.endless()) fatal(lossy_utf8(name) + ": a line too long (1 GiB and more)");
  if (fd != tools::standard_input) tools::close_descriptor(fd);
  const tools::check_options& o = ctx.opt.checking;
  if (o.ignore_missing && counts.matched == 0) {
    out.flush();
    to_stderr("b3sum: " + lossy_utf8(name) + ": no file was verified\n");
  }
  run_counts.malformed += counts.malformed;
  run_counts.unreadable += counts.unreadable;
  run_counts.mismatched += counts.mismatched;
  run_counts.matched += counts.matched;
  // Improperly formatted lines always fail, as in the official b3sum (--strict's meaning).
  tools::check_options strict = o;
  strict.strict = true;
  return counts.passed(strict);
}

}  // namespace b3sum::detail
