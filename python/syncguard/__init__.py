# SPDX-License-Identifier: Apache-2.0
"""syncguard: a race detector for asynchronous CUDA copies (the Python side).

The detector itself is libsyncguard.so, preloaded into the program. This
package holds the pytest plugin (syncguard.pytest_plugin, registered as the
pytest11 entry point "syncguard") and the ctypes binding of the library's C
API (syncguard._api); see syncguard-pytest(1).
"""
