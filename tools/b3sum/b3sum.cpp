// b3sum: a drop-in for the official BLAKE3 command-line tool, on fastblake.
//
// Output, messages, usage errors and exit statuses follow the newest official b3sum, 1.8.6
// (its own tests, ported: tools/b3sum/tests/b3sum_official_test.py). fastblake's own, off by
// default: -j/--jobs, GNU's check options (--status, --strict, --ignore-missing, -w/--warn),
// -z/--zero, -r/--recursive with -L/--dereference, and a real --progress bar. README.md here
// lists every difference.
//
// Here: the run, from the command line (options.cpp) to the exit status; hashing an input and
// printing its sum are in hashing.cpp, --check in check.cpp.
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "../common/batches.hpp"
#include "../common/check.hpp"
#include "../common/file_list.hpp"
#include "../common/io.hpp"
#include "../common/progress.hpp"
#include "../common/run.hpp"
#include "../common/system.hpp"
#include "../common/threads.hpp"
#include "../common/walk.hpp"
#include "check.hpp"
#include "check_line.hpp"
#include "cli.hpp"
#include "hashing.hpp"
#include "run.hpp"

namespace b3sum::detail {

tools::output out(tools::standard_output);

// (Constant data: nothing here allocates before main().)
constexpr b3sum::identity plain_b3sum{"Usage: b3sum [OPTIONS] [FILE]...\n", "", "b3sum 1.8.6"};
static_assert(plain_b3sum.version.ends_with(official_version));
// The tool running: b3sum, or one built on it.
const b3sum::identity* tool = &plain_b3sum;

void to_stderr(const std::string& text) { tools::write_all(tools::standard_error, text); }

void clap_error(const std::string& message, std::optional<std::string> usage,
                const std::string& tip) {
  std::string text = "error: " + message + "\n";
  if (!tip.empty()) text += "\n  tip: " + tip + "\n";
  if (usage) {
    const std::string_view head = tool->help_head;
    const std::size_t at = head.find("Usage: ");
    const std::string_view program = head.substr(at + 7, head.find(" [OPTIONS]", at) - at - 7);
    text += "\nUsage: " + std::string(program) + " " + *usage + "\n";
  }
  text += "\nFor more information, try '--help'.\n";
  to_stderr(text);
  tools::finish(2);
}

void fatal(const std::string& message) {
  out.flush();
  to_stderr("Error: " + message + "\n");
  tools::finish(1);
}

void check_output() {
  if (out.error() == 0) return;
  to_stderr(std::string("b3sum: ") + tools::os_error_text(out.error()) + "\n");
  tools::finish(1);
}

}  // namespace b3sum::detail

namespace {

using namespace b3sum::detail;
using b3sum::lossy_utf8;
namespace b3 = fastblake::blake3;
namespace fs = std::filesystem;

// The key for --keyed: exactly 32 bytes on standard input.
b3::key_type read_key() {
  b3::key_type key;
  std::size_t got = 0;
  std::array<std::uint8_t, 33> buffer;
  for (;;) {
    const std::ptrdiff_t n =
        tools::read_some(tools::standard_input, buffer.data() + got, buffer.size() - got);
    if (n < 0) fatal(os_error(std::error_code(errno, std::generic_category())));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (got == buffer.size()) break;
  }
  if (got < 32) fatal("expected 32 key bytes from stdin, found " + std::to_string(got));
  if (got > 32) fatal("read more than 32 key bytes from stdin");
  std::copy_n(buffer.begin(), 32, key.begin());
  return key;
}

// A thread count from the command line, capped (tools::usable_threads); the pool of as many
// as the system gives.
std::unique_ptr<fastblake::thread_pool> make_pool(std::uint64_t threads) {
  return tools::pool_of_at_most(tools::usable_threads(threads));
}

// The inputs names stand for: with --recursive, the files under directories.
void add_inputs(const options& o, const std::string& name, std::vector<tools::walked>& found) {
  if (o.recursive) {
    tools::walk(name, o.dereference, found);
  } else {
    found.push_back({name, 0});
  }
}

// Names of --files0-from's list taken a block at a time: as many as a distributor's batches
// spread well, few enough that a list of millions is never held whole.
constexpr std::size_t list_block = 1u << 16;

// The inputs of the next block of the list, each bad entry in its place; false at its end.
bool next_inputs(const options& o, tools::file_list& list, std::vector<tools::walked>& found) {
  found.clear();
  std::vector<tools::file_list::entry> block;
  if (!list.next(block, list_block)) return false;
  for (tools::file_list::entry& e : block) {
    if (e.problem.empty()) {
      add_inputs(o, e.name, found);
    } else {
      found.push_back({std::move(e.name), EINVAL, std::move(e.problem)});
    }
  }
  return true;
}

std::uint64_t total_size(const std::vector<tools::walked>& files) {
  std::uint64_t total = 0;
  for (const tools::walked& f : files) {
    tools::file_status info;
    if (f.error == 0 && f.path != "-" && tools::status_of(f.path, true, info) &&
        info.kind == tools::file_kind::regular) {
      total += info.size;
    }
  }
  return total;
}

int run_unguarded(int argc, char** argv, b3sum::distributor* files_elsewhere) {
  // As Rust's runtime: a closed standard descriptor is /dev/null, so that no file opened here
  // takes its place.
  tools::prepare_standard_streams();
  context ctx;
  ctx.elsewhere = files_elsewhere;
  ctx.opt = parse(argc, argv);
  const options& o = ctx.opt;
  if (o.raw && o.files.size() > 1) fatal("Only one filename can be provided when using --raw");
  std::unique_ptr<fastblake::thread_pool> pool;
  if (o.num_threads) {
    if (const auto n = *parse_number(*o.num_threads); n != 0) pool = make_pool(n);
  }
  if (pool) ctx.file.pool = pool.get();
  ctx.file.strategy = o.no_mmap ? b3::file_strategy::read : b3::file_strategy::automatic;
  std::size_t jobs = 1;
  if (o.jobs) {
    const auto n = parse_number(*o.jobs);
    if (!n || *n == 0) fatal("Failed to parse jobs: a number from 1 up is needed.");
    jobs = tools::usable_threads(*n);
  }
  if (o.keyed) {
    ctx.spec.mode = b3sum::mode_spec::kind::keyed;
    ctx.spec.key = read_key();
  } else if (o.derive_key) {
    ctx.spec.mode = b3sum::mode_spec::kind::derive_key;
    ctx.spec.context = *o.derive_key;
  }
  ctx.mode = b3::hasher(ctx.spec.to_mode());
  // The inputs: the FILE arguments, or the list's first block (a block at a time after it).
  std::vector<tools::walked> files;
  std::optional<tools::file_list> list;
  if (o.files0_from) {
    list.emplace(*o.files0_from);
    if (list->open_error() != 0) {
      fatal("cannot open '" + lossy_utf8(*o.files0_from) + "' for reading: " +
            os_error(std::error_code(list->open_error(), std::generic_category())));
    }
    next_inputs(o, *list, files);
  } else {
    for (const std::string& name : o.files) add_inputs(o, name, files);
  }
  const auto next_block = [&] { return list && next_inputs(o, *list, files); };
  if (o.raw && files.size() > 1) fatal("Only one filename can be provided when using --raw");
  // Under mpirun, standard error is always a pipe: whether it ends at a terminal is unknown, so a
  // distributed run draws when asked.
  if (o.progress && (ctx.elsewhere != nullptr || tools::is_terminal(tools::standard_error))) {
    // When checking, the files to hash are in the check files: no total to show.
    // (Nor where the inputs come in blocks of a list.)
    const bool totals = !o.check && !list;
    ctx.progress = std::make_unique<tools::progress_display>(
        tools::standard_error, totals ? total_size(files) : 0, totals ? files.size() : 1);
    attach_progress(ctx, ctx.elsewhere != nullptr || (!o.check && jobs > 1));
  }
  // --seek applies when checking too, as in the official (check_verdict).
  if (o.seek) ctx.seek = *parse_number(*o.seek);
  bool any_failed = false;
  // A bad entry of the list, in its place among the outputs.
  const auto report_problem = [&](const tools::walked& f) {
    if (ctx.progress) ctx.progress->clear();
    out.flush();
    check_output();
    to_stderr("b3sum: " + lossy_utf8(f.path) + ": " + f.problem + "\n");
    any_failed = true;
  };
  // A list that could not be read to its end fails the run, after what it named.
  const auto list_read_through = [&] {
    if (!list || list->read_error() == 0) return;
    report_problem(
        {*o.files0_from, 0,
         "read error: " + os_error(std::error_code(list->read_error(), std::generic_category()))});
  };
  if (o.check) {
    tools::check_counts counts;
    do {
      for (const tools::walked& f : files) {
        if (!f.problem.empty()) {
          report_problem(f);
        } else if (!check_file(ctx, f.path, counts)) {
          any_failed = true;
        }
      }
    } while (next_block());
    list_read_through();
    out.flush();
    check_output();
    // The official's one summary (1.4 and later), after everything: every line that failed,
    // however it failed.
    if (const std::size_t failed = counts.malformed + counts.unreadable + counts.mismatched;
        failed > 0 && !o.checking.status) {
      to_stderr("b3sum: WARNING: " + std::to_string(failed) +
                (failed == 1 ? " computed checksum did NOT match\n"
                             : " computed checksums did NOT match\n"));
    }
    return any_failed ? 1 : 0;
  }
  // (parse() took only numbers.)
  if (o.length) ctx.length = *parse_number(*o.length);
  const auto report = [&](const std::string& name, const std::optional<b3::output_reader>& r,
                          const std::string& error) {
    if (!r) {
      if (ctx.progress) ctx.progress->clear();
      out.flush();
      check_output();
      to_stderr("b3sum: " + lossy_utf8(name) + ": " + error + "\n");
      any_failed = true;
    } else {
      print_output(ctx, *r, name);
    }
  };
  const auto hash_one = [&](const std::string& name) {
    std::error_code ec;
    std::string error;
    const auto r = hash_input(ctx, name, ec, error);
    report(name, r, error);
  };
  const auto walk_error = [&](const tools::walked& f) {
    if (!f.problem.empty()) return report_problem(f);
    report(f.path, std::nullopt, os_error(std::error_code(f.error, std::generic_category())));
  };
  const auto is_alone = [&](std::size_t i) { return files[i].path == "-" || files[i].error != 0; };
  const auto hash_alone = [&](std::size_t i) {
    if (files[i].error != 0) {
      walk_error(files[i]);
    } else {
      hash_one(files[i].path);
    }
  };
  // -j: files in batches hashed at once by hash_files on a pool of `jobs` threads (unless
  // --num-threads chose one); standard input on its own, in order.
  std::unique_ptr<fastblake::thread_pool> job_pool;
  if (ctx.elsewhere == nullptr && jobs > 1 && !pool) {
    job_pool = make_pool(jobs);
    ctx.file.pool = job_pool.get();
  }
  do {
    if (ctx.elsewhere != nullptr) {
      tools::in_ordered_batches(
          files.size(), distributed_batch, is_alone, hash_alone,
          [&](std::size_t first, std::size_t last) {
            std::vector<std::string> batch;
            for (std::size_t k = first; k < last; ++k) batch.push_back(files[k].path);
            ctx.elsewhere->hash(batch, ctx.spec, ctx.file.pool, ctx.file.strategy,
                                progress_callback(ctx), [&](std::size_t k, b3::file_result&& r) {
                                  if (ctx.progress) ctx.progress->finish();
                                  if (r.error) {
                                    report(batch[k], std::nullopt, os_error(r.error));
                                  } else {
                                    report(batch[k], r.output, "");
                                  }
                                });
          });
    } else if (jobs > 1) {
      tools::in_ordered_batches(
          files.size(), 512 * jobs, is_alone, hash_alone, [&](std::size_t first, std::size_t last) {
            std::vector<fs::path> batch;
            for (std::size_t k = first; k < last; ++k)
              batch.push_back(tools::path_of(files[k].path));
            const auto results = b3::hash_files(batch, ctx.mode, ctx.file);
            for (std::size_t k = 0; k < results.size(); ++k) {
              if (ctx.progress) ctx.progress->finish();
              if (results[k].error) {
                report(files[first + k].path, std::nullopt, os_error(results[k].error));
              } else {
                report(files[first + k].path, results[k].output, "");
              }
            }
          });
    } else {
      for (std::size_t i = 0; i < files.size(); ++i) hash_alone(i);
    }
  } while (next_block());
  list_read_through();
  if (ctx.progress) ctx.progress->clear();
  out.flush();
  check_output();
  return any_failed ? 1 : 0;
}

// Runs b3sum, its exit status the result of any way it ends.
int run_guarded(int argc, char** argv, b3sum::distributor* files_elsewhere,
                const b3sum::identity& who) {
  tool = &who;
  out.reset();
  try {
    return run_unguarded(argc, argv, files_elsewhere);
  } catch (const tools::exit_status& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    // Where the official aborts ("memory allocation of N bytes failed"): its Error line for
    // ENOMEM, written without allocating, after the lines already made.
    out.flush();
    tools::write_all(tools::standard_error, "Error: Cannot allocate memory (os error 12)\n");
    return 1;
  }
}

}  // namespace

fastblake::blake3::hazmat::mode b3sum::mode_spec::to_mode() const {
  switch (mode) {
    case kind::keyed:
      return b3::hazmat::mode::keyed(key);
    case kind::derive_key:
      return b3::hazmat::mode::derive_key(context);
    case kind::hash:
      break;
  }
  return b3::hazmat::mode::hash();
}

int b3sum::run(int argc, char** argv) { return run_guarded(argc, argv, nullptr, plain_b3sum); }

int b3sum::run_distributed(int argc, char** argv, distributor& files_elsewhere,
                           const identity& who) {
  return run_guarded(argc, argv, &files_elsewhere, who);
}
