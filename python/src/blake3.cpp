// fastblake.blake3: blake3-py's class (the de-facto Python API for BLAKE3), with the same
// signature, attributes, results and errors, over the C++ library; and hash_many.
#include <fastblake/blake3.hpp>
#include <fastblake/file.hpp>
#include <fastblake/thread_pool.hpp>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common.hpp"
#include "module.hpp"

namespace fastblake::python {
namespace {

namespace b3 = fastblake::blake3;

constexpr std::int64_t auto_threads = -1;

// A pool of n threads (n above 1 and below the default pool's size), made on first use and
// kept: blake3-py's max_threads caps the threads of one process-wide pool, and making threads
// per object or per call would cost more than most inputs take to hash.
thread_pool& pool_of(std::size_t n) {
  static std::mutex mutex;
  static std::map<std::size_t, std::unique_ptr<thread_pool>> pools;
  const std::lock_guard guard(mutex);
  auto& pool = pools[n];
  if (!pool) pool = std::make_unique<thread_pool>(n);
  return *pool;
}

// blake3-py's errors: its messages, and its order of checks.
[[noreturn]] void raise_not_instance(nb::handle value, const char* type) {
  PyErr_Format(PyExc_TypeError, "'%s' object is not an instance of '%s'",
               Py_TYPE(value.ptr())->tp_name, type);
  throw nb::python_error();
}

// The mode blake3-py's keyword arguments name.
b3::hazmat::mode mode_of(nb::handle key, nb::handle derive_key_context) {
  if (!key.is_none() && !derive_key_context.is_none()) {
    throw nb::value_error("cannot use key and derive_key_context at the same time");
  }
  if (!key.is_none()) {
    const input_buffer k(key, buffer_rules::bytes_only);
    if (k.size() != b3::key_size) {
      throw nb::value_error(("expected a 32-byte key, found " + std::to_string(k.size())).c_str());
    }
    b3::key_type bytes;
    std::memcpy(bytes.data(), k.bytes().data(), bytes.size());
    return b3::hazmat::mode::keyed(bytes);
  }
  if (!derive_key_context.is_none()) {
    if (!PyUnicode_Check(derive_key_context.ptr())) raise_not_instance(derive_key_context, "str");
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(derive_key_context.ptr(), &size);
    if (text == nullptr) throw nb::python_error();
    return b3::hazmat::mode::derive_key(std::string_view(text, static_cast<std::size_t>(size)));
  }
  return b3::hazmat::mode::hash();
}

void check_threads(std::int64_t n) {
  if (n == 0 || n < auto_threads) throw nb::value_error("not a valid number of threads");
}

// usedforsecurity: a bool (NumPy's too), as blake3-py takes it; ignored.
void check_bool(nb::handle value) {
  if (PyBool_Check(value.ptr())) return;
  const std::string_view type = Py_TYPE(value.ptr())->tp_name;
  if (type == "numpy.bool_" || type == "numpy.bool") return;
  raise_not_instance(value, "bool");
}

}  // namespace

// A str or os.PathLike path, as blake3-py's update_mmap takes it (bytes are refused).
std::filesystem::path text_path_of(nb::handle path) {
  PyObject* fs = PyOS_FSPath(path.ptr());
  if (fs == nullptr) throw nb::python_error();
  nb::object owned = nb::steal(fs);
  if (!PyUnicode_Check(fs)) raise_not_instance(owned, "str");
  return path_of(owned);
}

struct py_blake3 {
  b3::hasher hasher;
  std::int64_t max_threads = 1;
  object_lock lock;

  py_blake3(const b3::hazmat::mode& m, std::int64_t threads) : hasher(m), max_threads(threads) {}
  py_blake3(const py_blake3& other) : hasher(other.hasher), max_threads(other.max_threads) {}
  py_blake3(py_blake3&& other) noexcept : hasher(other.hasher), max_threads(other.max_threads) {}

  // Absorbs a buffer: on this object's threads as max_threads says, without the GIL from
  // release_gil_from bytes on.
  void absorb(nb::handle data) {
    const input_buffer in(data, buffer_rules::bytes_only);
    lock.run(in.size() >= release_gil_from, [&] {
      if (max_threads == 1 || in.size() < b3::auto_parallel_min_size) {
        hasher.update(in.bytes());
      } else if (max_threads == auto_threads ||
                 static_cast<std::size_t>(max_threads) >= thread_pool::default_threads()) {
        hasher.update_parallel(in.bytes());
      } else {
        hasher.update_parallel(in.bytes(), pool_of(static_cast<std::size_t>(max_threads)));
      }
    });
  }

  // Absorbs a file, mapped: on this object's threads as max_threads says, without the GIL.
  void absorb_file(nb::handle path) {
    const std::filesystem::path p = text_path_of(path);
    std::error_code ec;
    lock.run(true, [&] {
      file_options options;
      options.strategy = max_threads == 1 ? file_strategy::mmap : file_strategy::mmap_parallel;
      if (max_threads > 1 &&
          static_cast<std::size_t>(max_threads) < thread_pool::default_threads()) {
        options.pool = &pool_of(static_cast<std::size_t>(max_threads));
      }
      b3::update_from_file(hasher, p, options, ec);
    });
    if (ec) raise_os_error(ec, path);
  }

  b3::output_reader reader() {
    return lock.run(false, [&] { return hasher.finalize_xof(); });
  }
};

nb::bytes output_bytes(b3::output_reader reader, nb::handle length, nb::handle seek) {
  const std::uint64_t n = u64_argument(length);
  const std::uint64_t at = u64_argument(seek);
  if (n > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) {
    PyErr_SetString(PyExc_OverflowError, "length overflows isize");
    throw nb::python_error();
  }
  reader.seek(at);
  return bytes_filled(static_cast<std::size_t>(n),
                      [&](std::span<std::byte> out) { reader.fill(out); });
}

void bind_blake3(nb::module_& m) {
  auto cls =
      nb::class_<py_blake3>(m, "blake3",
                            "An incremental BLAKE3 hasher: blake3-py's interface (the blake3 "
                            "package), over fastblake's library.");
  cls.def(
         "__init__",
         [](py_blake3* self, nb::handle data, nb::handle key, nb::handle derive_key_context,
            nb::handle max_threads, nb::handle usedforsecurity) {
           // blake3-py's order: the conversions, the mode, the threads, then the data.
           const std::int64_t threads = signed_argument(max_threads);
           check_bool(usedforsecurity);
           const b3::hazmat::mode mode = mode_of(key, derive_key_context);
           check_threads(threads);
           new (self) py_blake3(mode, threads);
           if (!data.is_none()) self->absorb(data);
         },
         nb::arg().none() = nb::none(), nb::kw_only(), nb::arg("key").none() = nb::none(),
         nb::arg("derive_key_context").none() = nb::none(), nb::arg("max_threads").none() = 1,
         nb::arg("usedforsecurity").none() = true,
         "blake3(data=b'', /, *, key=None, derive_key_context=None, max_threads=1, "
         "usedforsecurity=True)\n\nA hasher for plain hashing, keyed hashing (key: 32 bytes) or "
         "key derivation (derive_key_context: a str). max_threads=blake3.AUTO lets the library "
         "choose the threads for large inputs.")
      .def(
          "update",
          [](nb::handle self, nb::handle data) {
            nb::inst_ptr<py_blake3>(self)->absorb(data);
            return nb::borrow(self);
          },
          nb::arg().none(), "Absorbs a buffer; returns self.")
      .def(
          "update_mmap",
          [](nb::handle self, nb::handle path) {
            nb::inst_ptr<py_blake3>(self)->absorb_file(path);
            return nb::borrow(self);
          },
          nb::arg("path").none(),
          "Absorbs the file at `path` (str or os.PathLike), mapped; returns self.")
      .def(
          "copy",
          [](py_blake3& self) { return self.lock.run(false, [&] { return py_blake3(self); }); },
          "An independent copy of the hasher.")
      .def(
          "reset", [](py_blake3& self) { self.lock.run(false, [&] { self.hasher.reset(); }); },
          "Back to the empty input, in the same mode.")
      .def(
          "digest",
          [](py_blake3& self, nb::handle length, nb::handle seek) {
            return output_bytes(self.reader(), length, seek);
          },
          nb::arg("length").none() = 32, nb::kw_only(), nb::arg("seek").none() = 0,
          "`length` bytes of output from position `seek` (the hash is the first 32).")
      .def(
          "hexdigest",
          [](py_blake3& self, nb::handle length, nb::handle seek) {
            const nb::bytes out = output_bytes(self.reader(), length, seek);
            return hex_of(std::span(static_cast<const std::byte*>(out.data()), out.size()));
          },
          nb::arg("length").none() = 32, nb::kw_only(), nb::arg("seek").none() = 0,
          "digest(), in hex.");
  cls.attr("name") = "blake3";
  cls.attr("digest_size") = b3::out_size;
  cls.attr("block_size") = 64;
  cls.attr("key_size") = b3::key_size;
  cls.attr("AUTO") = auto_threads;

  m.def(
      "hash_many",
      [](nb::handle inputs, nb::handle key, nb::handle derive_key_context) {
        const b3::hazmat::mode mode = mode_of(key, derive_key_context);
        const nb::sequence items = nb::borrow<nb::sequence>(inputs);
        std::vector<std::unique_ptr<input_buffer>> held;
        std::vector<std::span<const std::byte>> spans;
        std::size_t total = 0;
        for (nb::handle item : items) {
          held.push_back(std::make_unique<input_buffer>(item, buffer_rules::bytes_only));
          spans.push_back(held.back()->bytes());
          total += spans.back().size();
        }
        std::vector<b3::digest> digests(spans.size());
        const auto run = [&] {
          if (!key.is_none() || !derive_key_context.is_none()) {
            // Keyed and derived inputs: one hasher each (hash_many is the plain and keyed
            // hash only).
            for (std::size_t i = 0; i < spans.size(); ++i) {
              digests[i] = b3::hasher(mode).update(spans[i]).finalize();
            }
          } else {
            b3::hash_many(spans, digests);
          }
        };
        if (total >= release_gil_from) {
          nb::gil_scoped_release unlocked;
          run();
        } else {
          run();
        }
        nb::list out;
        for (const b3::digest& d : digests) {
          out.append(nb::bytes(reinterpret_cast<const char*>(d.bytes().data()), d.bytes().size()));
        }
        return out;
      },
      nb::arg("inputs").none(), nb::kw_only(), nb::arg("key").none() = nb::none(),
      nb::arg("derive_key_context").none() = nb::none(),
      "The 32-byte BLAKE3 hashes of many buffers (a list of bytes), small ones side by side in "
      "the SIMD lanes.");

  m.def(
      "hash_file",
      [](nb::handle path, nb::handle key, nb::handle derive_key_context, nb::handle strategy,
         nb::handle progress, nb::handle length) {
        if (!PyUnicode_Check(strategy.ptr())) raise_not_instance(strategy, "str");
        Py_ssize_t size = 0;
        const char* name = PyUnicode_AsUTF8AndSize(strategy.ptr(), &size);
        if (name == nullptr) throw nb::python_error();
        const std::uint64_t n = u64_argument(length);
        if (n > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) {
          PyErr_SetString(PyExc_OverflowError, "length overflows isize");
          throw nb::python_error();
        }
        return hash_file_with(b3::hasher(mode_of(key, derive_key_context)), path,
                              std::string_view(name, static_cast<std::size_t>(size)), progress,
                              static_cast<std::size_t>(n));
      },
      nb::arg("path").none(), nb::kw_only(), nb::arg("key").none() = nb::none(),
      nb::arg("derive_key_context").none() = nb::none(), nb::arg("strategy").none() = "auto",
      nb::arg("progress").none() = nb::none(), nb::arg("length").none() = 32,
      "The BLAKE3 hash of the file at `path`, in bounded memory, with the GIL released. "
      "strategy: 'auto' (mapped on all threads for large regular files, read otherwise), 'read', "
      "'mmap' or 'mmap_parallel'. progress(done, total) is called about every 64 MiB and at the "
      "end; an exception it raises stops the hashing and is raised here, and returning False "
      "stops it with an OSError (ECANCELED).");
}

void bind_blake3_hazmat(nb::module_& m) {
  const auto cv_of = [](nb::handle value, const char* what) {
    const input_buffer in(value, buffer_rules::bytes_only);
    if (in.size() != b3::out_size) {
      throw nb::value_error((std::string(what) + " must be 32 bytes").c_str());
    }
    b3::hazmat::chaining_value cv;
    std::memcpy(cv.data(), in.bytes().data(), cv.size());
    return cv;
  };
  const auto bytes_of = [](const b3::hazmat::chaining_value& cv) {
    return nb::bytes(reinterpret_cast<const char*>(cv.data()), cv.size());
  };
  m.attr("CHUNK_LEN") = 1024;
  m.def(
      "set_input_offset",
      [](nb::handle hasher, nb::handle offset) {
        py_blake3& h = *nb::inst_ptr<py_blake3>(hasher);
        const std::uint64_t at = u64_argument(offset);
        h.lock.run(false, [&] { b3::hazmat::set_input_offset(h.hasher, at); });
        return nb::borrow(hasher);
      },
      nb::arg("hasher"), nb::arg("offset").none(),
      "Declares that `hasher` (a fastblake.blake3 with nothing absorbed yet) hashes the subtree "
      "starting at byte `offset` (a multiple of CHUNK_LEN) of a larger input; returns it. Its "
      "digest() is then refused: use finalize_non_root().");
  m.def(
      "finalize_non_root",
      [bytes_of](py_blake3& h) {
        return bytes_of(h.lock.run(false, [&] { return b3::hazmat::finalize_non_root(h.hasher); }));
      },
      nb::arg("hasher"), "The 32-byte chaining value of the subtree `hasher` absorbed.");
  m.def(
      "merge_subtrees_non_root",
      [cv_of, bytes_of](nb::handle left, nb::handle right, nb::handle key,
                        nb::handle derive_key_context) {
        return bytes_of(b3::hazmat::merge_subtrees_non_root(
            cv_of(left, "left"), cv_of(right, "right"), mode_of(key, derive_key_context)));
      },
      nb::arg("left").none(), nb::arg("right").none(), nb::kw_only(),
      nb::arg("key").none() = nb::none(), nb::arg("derive_key_context").none() = nb::none(),
      "The chaining value of the parent of two sibling subtrees.");
  m.def(
      "merge_subtrees_root",
      [cv_of](nb::handle left, nb::handle right, nb::handle key, nb::handle derive_key_context,
              nb::handle length, nb::handle seek) {
        return output_bytes(
            b3::hazmat::merge_subtrees_root_xof(cv_of(left, "left"), cv_of(right, "right"),
                                                mode_of(key, derive_key_context)),
            length, seek);
      },
      nb::arg("left").none(), nb::arg("right").none(), nb::kw_only(),
      nb::arg("key").none() = nb::none(), nb::arg("derive_key_context").none() = nb::none(),
      nb::arg("length").none() = 32, nb::arg("seek").none() = 0,
      "The output of the whole input from the root's two children: `length` bytes from `seek`.");
  m.def(
      "left_subtree_len",
      [](nb::handle input_len) { return b3::hazmat::left_subtree_len(u64_argument(input_len)); },
      nb::arg("input_len").none(),
      "The bytes of the left child of a (sub)tree of input_len (more than CHUNK_LEN) bytes.");
  m.def(
      "max_subtree_len",
      [](nb::handle offset) -> nb::object {
        const auto most = b3::hazmat::max_subtree_len(u64_argument(offset));
        return most ? nb::object(nb::int_(*most)) : nb::object(nb::none());
      },
      nb::arg("offset").none(),
      "The most bytes a subtree starting at `offset` may hold; None for offset 0 (no limit).");
}

}  // namespace fastblake::python
