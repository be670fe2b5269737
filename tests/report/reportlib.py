# SPDX-License-Identifier: Apache-2.0
"""Helpers for the report tests (tests/report/t-*.py).

Each test is a script that exits 0 (pass), 1 (fail) or 77 (skip) after one
verdict line, as automake's test driver expects. They run test programs
under the preloaded library:

  SYNCGUARD_LIB      the library (required)
  SG_DRV_DIR         the driver-API test programs (default /tmp/drv)
  SG_REPORT_BIN_DIR  fork_race, built from tests/report/fork_race.c
                     (default: report/ under the current directory, as
                     make check runs in the tests build directory)
  SYNCGUARD_REPORT   tools/syncguard-report (default: from the source tree)
"""

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = os.path.splitext(os.path.basename(sys.argv[0]))[0]


def passed(msg="ok"):
    print("PASS %s: %s" % (NAME, msg))
    sys.exit(0)


def failed(msg):
    """Details first, so that the verdict is the last line."""
    first, _, details = msg.partition("\n")
    if details.strip():
        print(details.rstrip("\n"))
    print("FAIL %s: %s" % (NAME, first))
    sys.exit(1)


def skipped(msg):
    print("SKIP %s: %s" % (NAME, msg))
    sys.exit(77)


def expect(cond, msg):
    if not cond:
        failed(msg)


def library():
    lib = os.environ.get("SYNCGUARD_LIB")
    if not lib or not os.path.isfile(lib):
        failed("no library: set SYNCGUARD_LIB to libsyncguard.so (got %r)" % lib)
    return lib


def drv(name):
    """A test program of tests/drv; skip when it is not built."""
    path = os.path.join(os.environ.get("SG_DRV_DIR", "/tmp/drv"), name)
    if not os.access(path, os.X_OK):
        skipped("no test program %s (set SG_DRV_DIR)" % path)
    return path


def report_bin(name):
    """A program built from tests/report/NAME.c; skip when absent."""
    d = os.environ.get("SG_REPORT_BIN_DIR", os.path.join(os.getcwd(), "report"))
    path = os.path.join(d, name)
    if not os.access(path, os.X_OK):
        skipped("no test program %s (set SG_REPORT_BIN_DIR)" % path)
    return path


def report_tool():
    tool = os.environ.get("SYNCGUARD_REPORT",
                          os.path.join(HERE, "..", "..", "tools", "syncguard-report"))
    if not os.path.isfile(tool):
        failed("no syncguard-report at %s (set SYNCGUARD_REPORT)" % tool)
    return tool


class Run:
    """What a run printed and how it ended."""

    def __init__(self, proc):
        self.status = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self):
        return "status %d, stdout and stderr below\n%s%s" % (self.status, self.out, self.err)


def run(argv, options="", env=None):
    """argv under the preload with SYNCGUARD_OPTIONS=options; stdout and
    stderr apart (reports go to stderr)."""
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e["SYNCGUARD_OPTIONS"] = options
    e["LD_PRELOAD"] = library()
    e.update(env or {})
    p = subprocess.run(argv, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    return Run(p)


def run_tool(args):
    """syncguard-report, with the Python running this test."""
    p = subprocess.run([sys.executable, report_tool()] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return Run(p)


def tmpdir():
    return tempfile.TemporaryDirectory(prefix="sg-%s-" % NAME)


def summary_lines(text):
    return re.findall(r"^SUMMARY: syncguard: .*$", text, re.M)
