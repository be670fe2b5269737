# SPDX-License-Identifier: Apache-2.0
"""syncguard: a race detector for asynchronous CUDA copies.

This package carries libsyncguard.so (self-contained: it needs glibc
alone) and its launcher. Run a program under it with

    syncguard [options] -- python train.py
    python -m syncguard [options] -- python train.py

(see `syncguard --help` and syncguard(1)); merge JSON reports with
`syncguard-report`. library_path() names the library, for LD_PRELOAD.
The pytest plugin (syncguard.pytest_plugin, registered as the pytest11
entry point "syncguard": `pytest --syncguard`) and the ctypes binding of
the library's C API (syncguard._api) are described in syncguard-pytest(1).
"""

from ._locate import launcher_path, library_path

try:
    from ._version import version as __version__
except ImportError:  # a source tree: make wheel writes _version.py
    __version__ = "unknown"

__all__ = ["library_path", "launcher_path", "__version__"]
