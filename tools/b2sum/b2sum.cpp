// b2sum: a drop-in for GNU coreutils' b2sum (Debian 12's, 9.1), on fastblake.
//
// Output, messages and exit statuses follow GNU byte for byte (checked against Debian's b2sum by
// tools/b2sum/tests/b2sum_test.py), options are read as GNU's getopt_long reads them on every
// system (tools::gnu_options), and messages name the program by argv[0] as GNU's do. Beyond GNU:
// -a/--algorithm (as the BLAKE2 reference's b2sum), -j/--jobs and --num-threads.
//
// Here: hashing and printing the sums, and the run from the command line (options.cpp) to the
// exit status; checking (-c) is in check.cpp.

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fastblake/backend.hpp>
#include <fastblake/blake2.hpp>
#include <fastblake/config.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include "../common/batches.hpp"
#include "../common/escape.hpp"
#include "../common/file_list.hpp"
#include "../common/io.hpp"
#include "../common/run.hpp"
#include "../common/threads.hpp"
#include "check.hpp"
#include "check_line.hpp"
#include "cli.hpp"
#include "messages.hpp"
#include "run.hpp"

namespace b2sum::detail {

bool stdin_used = false;

// ---- hashing ----

namespace {

namespace b2 = fastblake::blake2;

// The errno GNU would report; the file API's errors are errno values but for its own
// (a file that shrank), which reading to the end cannot meet.
int errno_of(const std::error_code& ec) {
  return ec.category() == std::generic_category() ? ec.value() : EIO;
}

}  // namespace

// Named files are opened here, above the standard descriptors, and read as streams: no path
// object per file, which costs 5% of hashing many small files.
result hash_named(const std::string& name, const settings& s) {
  const bool from_stdin = name == "-";
  if (from_stdin) stdin_used = true;
  const int fd = from_stdin ? tools::standard_input : tools::open_for_reading(name);
  if (fd < 0) return {"", errno};
  b2::hasher h(s.algo, s.bytes);
  std::error_code ec;
  b2::update_from_fd(h, fd, s.file, ec);
  if (!from_stdin) tools::close_descriptor(fd);
  return ec ? result{"", errno_of(ec)} : result{h.finalize().to_hex(), 0};
}

// Standard output at exit, as GNU's close_stdout sees it: a failed write is "write error" (with
// "Bad file descriptor" when the descriptor is closed); a closed descriptor with nothing
// written is no error. A closed standard input, once read, is reported too.
int finish_output(int status) {
  out.flush();
  if (out.error() != 0) {
    to_stderr(std::string(program) + ": write error" +
              (out.error() == EBADF ? ": Bad file descriptor" : "") + "\n");
    return EXIT_FAILURE;
  }
  if (stdin_used && tools::descriptor_closed(tools::standard_input)) {
    to_stderr(std::string(program) + ": standard input: " + tools::os_error_text(EBADF) + "\n");
    return EXIT_FAILURE;
  }
  return status;
}

}  // namespace b2sum::detail

namespace {

using b2sum::info;

using namespace b2sum::detail;

namespace b2 = fastblake::blake2;

// ---- output ----

// GNU escapes a name that holds a backslash, newline or carriage return (the line then starts
// with a backslash); never with --zero.
bool needs_escape(std::string_view name, char delimiter) {
  return delimiter == '\n' && tools::needs_escape(name);
}

void print_sum(const settings& s, const std::string& name, const std::string& hex) {
  const bool escape = needs_escape(name, s.delimiter);
  const std::string shown = escape ? tools::escape_name(name) : name;
  std::string line;
  if (escape) line.push_back('\\');
  if (s.tag) {
    line.append(info(s.algo).tag);
    if (s.bytes != info(s.algo).max_bytes) line.append("-").append(std::to_string(8 * s.bytes));
    line.append(" (").append(shown).append(") = ").append(hex);
  } else {
    line.append(hex)
        .append(" ")
        .append((name == "-" ? s.binary_stdin : s.binary) ? "*" : " ")
        .append(shown);
  }
  line.push_back(s.delimiter);
  out.write(line);
}

int run_unguarded(int argc, char** argv) {
  program = tools::program_name(argc > 0 ? argv[0] : nullptr, "b2sum");
  utf8_locale = tools::use_environment_locale();
  command c = parse_command_line(argc, argv);
  settings& s = c.s;
  // The FILEs: the operands, or --files0-from's list, read a block at a time.
  std::vector<std::string> files = std::move(c.files);
  std::vector<std::string> problems;  // beside files: a bad entry's message, in its place
  std::optional<tools::file_list> list;
  if (c.files0_from != nullptr) {
    list.emplace(c.files0_from);
    if (list->open_error() != 0) {
      fatal("cannot open " + quote(c.files0_from) +
            " for reading: " + tools::os_error_text(list->open_error()));
    }
    // With GNU's program, standard input then holds the names, not a file.
    if (std::strcmp(c.files0_from, "-") == 0) stdin_used = true;
  }
  const auto next_block = [&] {
    files.clear();
    problems.clear();
    std::vector<tools::file_list::entry> block;
    if (!list || !list->next(block, std::size_t{1} << 16)) return false;
    for (tools::file_list::entry& e : block) {
      files.push_back(std::move(e.name));
      problems.push_back(std::move(e.problem));
    }
    return true;
  };
  if (list) next_block();
  problems.resize(files.size());

  // A thread to read ahead while one hashes; more when -j or --num-threads asks, up to what
  // pays (tools::usable_threads).
  const std::size_t jobs = tools::usable_threads(c.jobs);
  const std::size_t leaf_threads = tools::usable_threads(c.leaf_threads);
  // (As many as the system gives: on the calling thread alone where it gives none.)
  const std::unique_ptr<fastblake::thread_pool> pool =
      tools::pool_of_at_most(std::max<std::size_t>({2, jobs, leaf_threads}));
  s.file.pool = pool.get();

  bool ok = true;
  const auto report = [&](const std::string& name, const result& r) {
    if (r.error != 0) {
      message(quotef(name) + ": " + tools::os_error_text(r.error));
      ok = false;
    } else {
      print_sum(s, name, r.hex);
    }
  };
  // A bad entry of the list: GNU's "LIST:N: why", in its place.
  const auto bad_entry = [&](std::size_t i) {
    if (problems[i].empty()) return false;
    const std::size_t colon = files[i].rfind(':');
    message(quotef(files[i].substr(0, colon)) + files[i].substr(colon) + ": " + problems[i]);
    ok = false;
    return true;
  };
  const auto hash_alone = [&](std::size_t i) {
    if (!bad_entry(i)) report(files[i], hash_named(files[i], s));
  };
  const b2::hasher prototype(s.algo, s.bytes);
  do {
    if (c.check) {
      for (std::size_t i = 0; i < files.size(); ++i) {
        if (!bad_entry(i)) ok = check_file(files[i], s, c.o) && ok;
      }
    } else if (jobs > 1) {
      // Batches of files hashed at once by hash_files, printed in order; standard input on its
      // own.
      tools::in_ordered_batches(
          files.size(), 64 * jobs,
          [&](std::size_t i) { return files[i] == "-" || !problems[i].empty(); }, hash_alone,
          [&](std::size_t first, std::size_t last) {
            std::vector<std::filesystem::path> batch;
            for (std::size_t k = first; k < last; ++k) batch.push_back(tools::path_of(files[k]));
            const auto results = b2::hash_files(batch, prototype, s.file);
            for (std::size_t k = 0; k < results.size(); ++k) {
              report(files[first + k], results[k].error ? result{"", errno_of(results[k].error)}
                                                        : result{results[k].digest.to_hex(), 0});
            }
          });
    } else {
      for (std::size_t i = 0; i < files.size(); ++i) hash_alone(i);
    }
  } while (next_block());
  if (list && list->read_error() != 0) {
    message(quotef(c.files0_from) + ": read error: " + tools::os_error_text(list->read_error()));
    ok = false;
  }
  return finish_output(ok ? EXIT_SUCCESS : EXIT_FAILURE);
}

}  // namespace

int b2sum::run(int argc, char** argv) {
  program = "b2sum";
  utf8_locale = false;
  stdin_used = false;
  plain_line_form = b2sum::plain_form::undecided;
  out.reset();
  try {
    return run_unguarded(argc, argv);
  } catch (const tools::exit_status& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    // GNU's xalloc_die(), written without allocating.
    out.flush();
    tools::write_all(tools::standard_error, program);
    tools::write_all(tools::standard_error, ": memory exhausted\n");
    return 1;
  }
}
