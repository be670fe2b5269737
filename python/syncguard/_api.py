# SPDX-License-Identifier: Apache-2.0
"""The C API of libsyncguard.so through ctypes (include/syncguard/syncguard.h,
syncguard-api(3)), and where to find the library.

The API is only there when the library is loaded into this process (by
LD_PRELOAD, before the interpreter started): attach() finds its functions
among the process's global symbols, without loading anything. Pure stdlib.
"""
import ctypes
import ctypes.util
import json
import os

#: The API version this binding speaks (SYNCGUARD_API_VERSION).
API_VERSION = 1

LIBRARY = "libsyncguard.so"


def find_library(explicit=None):
    """(path or None, the places tried). An explicit path (or SYNCGUARD_LIB)
    is the only place tried: when it names no file the caller says so,
    rather than silently using another library. Else: next to this package
    (a wheel ships it there), the build tree of a source checkout
    (python/syncguard -> src/.libs), the dynamic linker's search path."""
    chosen = explicit or os.environ.get("SYNCGUARD_LIB")
    if chosen:
        return (chosen if os.path.isfile(chosen) else None), [chosen]
    here = os.path.dirname(os.path.abspath(__file__))
    tried = [os.path.join(here, LIBRARY),
             os.path.join(here, "lib", LIBRARY),
             os.path.normpath(os.path.join(here, "..", "..", "src", ".libs", LIBRARY))]
    for path in tried:
        if os.path.isfile(path):
            return path, tried
    found = ctypes.util.find_library("syncguard")  # a soname, for LD_PRELOAD
    tried.append("the linker's search path (ldconfig)")
    return found, tried


class VersionMismatch(Exception):
    """The library loaded speaks an older API version."""


class Api:
    """The functions of the loaded library."""

    def __init__(self, process):
        self._version = process.syncguard_api_version
        self._version.restype = ctypes.c_int
        self._version.argtypes = []
        self._count = process.syncguard_race_count
        self._count.restype = ctypes.c_ulong
        self._count.argtypes = []
        self._races = process.syncguard_races_json
        self._races.restype = ctypes.c_size_t
        self._races.argtypes = [ctypes.c_ulong, ctypes.c_char_p, ctypes.c_size_t]
        self._context = process.syncguard_set_context
        self._context.restype = None
        self._context.argtypes = [ctypes.c_char_p]
        self._buf = ctypes.create_string_buffer(1 << 16)

    def version(self):
        return self._version()

    def race_count(self):
        """Race occurrences reported so far by this process."""
        return self._count()

    def races(self, since):
        """The distinct races with an occurrence numbered above since, as
        dicts (the JSON report plus text, count, first and last)."""
        while True:
            need = self._races(since, self._buf, len(self._buf))
            if need < len(self._buf):
                break
            self._buf = ctypes.create_string_buffer(need + 1)
        text = self._buf.value.decode("utf-8", errors="replace")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def set_context(self, label):
        """What the process is doing (a test and its phase): reports say it."""
        self._context(label.encode("utf-8", errors="replace") if label else None)


def attach():
    """The API of the libsyncguard.so loaded into this process, or None
    when none is. Raises VersionMismatch for another API version."""
    process = ctypes.CDLL(None)
    try:
        process.syncguard_api_version
    except AttributeError:
        return None
    version = process.syncguard_api_version
    version.restype, version.argtypes = ctypes.c_int, []
    # Versions only add functions: a library of this version or a later one
    # has everything this binding calls.
    if version() < API_VERSION:
        raise VersionMismatch("the libsyncguard.so loaded speaks C API version %d; this "
                              "syncguard package needs version %d or later"
                              % (version(), API_VERSION))
    return Api(process)
