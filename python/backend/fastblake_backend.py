"""The build backend: scikit-build-core's, with its build directory kept across pip's builds.

pip builds each time in a fresh isolated environment, so scikit-build-core lives at a new path
each time; it takes that for a changed toolchain and discards the CMake cache and every object
in build/python/<wheel tag>, and a second `pip install .` with nothing changed compiled the
whole library again. Nothing in the cache depends on that path (the CMake modules' path it
passes is set again at each configure), so where the same scikit-build-core version and CMake
built a directory from this source, the new path is recorded before the build and only what
changed is compiled. Anything else (another version, a moved source, an unreadable
record) is left for scikit-build-core to clear, as before.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import scikit_build_core
from scikit_build_core import build as _backend
from scikit_build_core.build import *  # noqa: F401,F403 (the PEP 517 hooks, unchanged)

_RECORD = ".skbuild-info.json"


def _keep_build_directories() -> None:
    source = Path.cwd().resolve()
    here = os.fspath(Path(scikit_build_core.__file__).parent)
    for record in (source / "build" / "python").glob(f"*/{_RECORD}"):
        try:
            info = json.loads(record.read_text(encoding="utf-8"))
            same_build = (
                info["source_dir"] == os.fspath(source)
                and info["skbuild_version"] == scikit_build_core.__version__
                and Path(info["cmake_path"]).exists()
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if same_build and info["skbuild_path"] != here:
            info["skbuild_path"] = here
            record.write_text(json.dumps(info, indent=2), encoding="utf-8")


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _keep_build_directories()
    return _backend.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _keep_build_directories()
    return _backend.build_editable(wheel_directory, config_settings, metadata_directory)
