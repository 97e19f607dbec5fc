#!/usr/bin/env bash
# The Python module as a user installs it: in a fresh virtual environment, pip builds a wheel
# (`pip wheel .`, the build requirements from PyPI), installs it with the test requirements,
# and the pytest suite runs on the installed module (from outside the source tree, so that the
# source's package is not the one imported). `pip install .` runs the same build hook and
# installs the wheel it makes; building it once halves the time (each pip build starts in a
# fresh isolated environment, so a second one compiles everything again).
# ctest's python_module (label python, in the release preset).
# Usage: python/tests/as_installed.sh SOURCE_DIR WORK_DIR [PYTHON]
set -euo pipefail
root=$1 work=$2 python=${3:-python3}
venv="$work/venv"
rm -rf "$venv" "$work/wheel"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
"${pip[@]}" wheel --no-deps -w "$work/wheel" "$root"
wheels=("$work"/wheel/fastblake-*.whl)
echo "built ${wheels[*]}"
"${pip[@]}" install "${wheels[0]}[test]"
(cd "$root/python/tests" && "$venv/bin/python" -m pytest -q -p no:cacheprovider)
