#!/usr/bin/env bash
# The Python module as a user installs it: a fresh virtual environment, pip taking the build
# and test requirements from PyPI, the pytest suite run on the installed module (from outside
# the source tree, so that the source's package is not the one imported), then a wheel as
# `pip wheel .` makes it (from the same build directory). ctest's python_module (label python,
# in the release preset).
# Usage: python/tests/as_installed.sh SOURCE_DIR WORK_DIR [PYTHON]
set -euo pipefail
root=$1 work=$2 python=${3:-python3}
venv="$work/venv"
rm -rf "$venv" "$work/wheel"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" install "$root[test]"
(cd "$root/python/tests" && "$venv/bin/python" -m pytest -q -p no:cacheprovider)
"${pip[@]}" wheel --no-deps -w "$work/wheel" "$root"
ls "$work"/wheel/fastblake-*.whl
