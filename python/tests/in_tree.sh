#!/usr/bin/env bash
# The pytest suite on the module this build tree made (ctest's python_module_in_tree, label
# python): in a virtual environment with the test requirements of pyproject.toml from PyPI,
# the package's Python files and the built extension on PYTHONPATH.
# In a sanitized build (asan-ubsan), the runtimes given after MODULE are preloaded (ASan's, which
# must be the first library loaded as Python is not instrumented, and the C++ library, which its
# exception interceptor needs loaded before the module throws), CPython's own
# allocator is turned off (PYTHONMALLOC=malloc) so that ASan sees every Python object the
# module reads, and any report ends the run. Leak detection stays off: CPython keeps its
# interpreter-lifetime allocations at exit, and test_leaks.py measures the module's own.
# Under ThreadSanitizer (tsan preset) its runtime is preloaded the same way, a report fails, and
# FASTBLAKE_TEST_SANITIZER=thread tells the tests that scale their work down under it.
# Usage: python/tests/in_tree.sh SOURCE_DIR WORK_DIR PYTHON MODULE [PRELOAD:PRELOAD...]
# (FASTBLAKE_PYTEST_FILES: the test files to run, separated by spaces; all by default)
set -euo pipefail
root=$1 work=$2 python=$3 module=$4 preload=${5:-}
venv="$work/venv"
if [[ ! -x $venv/bin/python ]]; then
  "$python" -m venv "$venv"
  mapfile -t requirements < <("$venv/bin/python" -c '
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["test"]))' "$root/pyproject.toml")
  "$venv/bin/python" -m pip --quiet --disable-pip-version-check install "${requirements[@]}"
fi
package="$work/package"
rm -rf "$package"
mkdir -p "$package/fastblake"
cp "$root"/python/fastblake/*.py "$root"/python/fastblake/py.typed "$package/fastblake/"
cp "$module" "$package/fastblake/"
cd "$root/python/tests"
if [[ $preload == *libtsan* ]]; then
  # ThreadSanitizer: any report fails the run.
  export LD_PRELOAD=$preload PYTHONMALLOC=malloc
  export TSAN_OPTIONS=halt_on_error=1:exitcode=66:second_deadlock_stack=1
  # (Read by the tests that scale their work down under it.)
  export FASTBLAKE_TEST_SANITIZER=thread
elif [[ -n $preload ]]; then
  export LD_PRELOAD=$preload PYTHONMALLOC=malloc
  # allocator_may_return_null: an allocation too large to make is NULL, which CPython turns
  # into MemoryError (blake3-py's suite asks for a digest of 2^62 bytes), as without ASan.
  export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1:allocator_may_return_null=1
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
# FASTBLAKE_PYTEST_FILES: the test files to run (all of them by default).
read -ra files <<<"${FASTBLAKE_PYTEST_FILES:-}"
PYTHONPATH=$package exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "${files[@]}"
