#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""pytest --syncguard (python/syncguard/pytest_plugin.py) on the suite in
pytest_suite/, against the CPU emulator of the driver.

pytest is started without the preload: the plugin must run it again under
the library. Then, with and without pytest-xdist (-n 2):
  - exactly the racy tests fail (JUnit XML says which), each with its
    report in its failure text: the kind, the phase, both stacks with the
    Python frames first and the racy line named;
  - a test that also failed on its own keeps its own failure text, an xfail
    does not excuse a race, a fixture's racy teardown blames its test;
  - the races outside any test (conftest.py at start-up, collection, a
    session-scoped fixture) are listed at the end under their phase and
    fail the session (status 1); with -n 2 each worker's come with its id;
    the test that uses the racy session fixture passes.
In abort mode, pytest ends at the first race, and the report names the
test. Without --syncguard the plugin does nothing; a missing library is a
usage error naming it.
Needs a python3 with pytest and pytest-xdist (Debian: python3-pytest,
python3-pytest-xdist); without them: skip. Environment (make check sets it):
SYNCGUARD_LIB, SG_LIBCUDA. Exit: 0 pass, 1 fail, 77 skip.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "pytest_suite")
PYTHON_SRC = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
NAME = "t-pytest-plugin"

RACY = {  # test -> (kind, phase)
    "test_racy_read": ("early-host-read", "call"),
    "test_racy_source_write": ("early-host-write", "call"),
    "test_racy_repeated[1]": ("early-host-read", "call"),
    "test_racy_repeated[2]": ("early-host-read", "call"),
    "test_racy_and_failing": ("early-host-read", "call"),
    "test_racy_fixture_teardown": ("early-host-read", "teardown"),
    "test_racy_xfail": ("early-host-read", "call"),
}
CORRECT = {"test_synchronized_read", "test_synchronized_source_write", "test_no_cuda",
           "test_uses_racy_session_resource", "test_after_collection_race"}


def verdict(word, msg, code):
    print("%s %s: %s" % (word, NAME, msg))
    sys.exit(code)


def find_python():
    for cand in (os.environ.get("PYTHON3"), sys.executable, "python3", "/usr/bin/python3"):
        if not cand:
            continue
        try:
            r = subprocess.run([cand, "-c", "import pytest, xdist"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        except OSError:
            continue
        if r.returncode == 0:
            return cand
    return None


def marker_line(path, name):
    with open(path) as f:
        for no, text in enumerate(f, 1):
            if text.rstrip().endswith("# SG-LINE: " + name):
                return no
    raise LookupError(name)


class Run:
    def __init__(self, p, junit):
        self.status, self.out = p.returncode, p.stdout
        self.cases = {}  # name -> (failed, text)
        if junit and os.path.exists(junit):
            for case in ET.parse(junit).getroot().iter("testcase"):
                bad = [e for e in case if e.tag in ("failure", "error")]
                text = "\n".join((e.get("message") or "") + "\n" + (e.text or "") for e in bad)
                self.cases[case.get("name")] = (bool(bad), text)


def run_pytest(py, work, args, extra_env=None):
    junit = os.path.join(work, "junit-%d.xml" % len(os.listdir(work)))
    env = dict(os.environ)
    for var in ("LD_PRELOAD", "SYNCGUARD_OPTIONS", "PYTEST_ADDOPTS", "PYTEST_PLUGINS",
                "NO_COLOR"):
        env.pop(var, None)
    env["PYTHONPATH"] = PYTHON_SRC + os.pathsep + work
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra_env or {})
    argv = [py, "-m", "pytest", "-p", "syncguard.pytest_plugin", "-p", "no:cacheprovider",
            "-o", "faulthandler_timeout=0", "--junitxml", junit, "-rA"] + args
    p = subprocess.run(argv, cwd=work, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, errors="replace")
    return Run(p, junit)


def python_first(text, errors, where):
    """Under 'READ at'/'WRITE at' and 'Copy enqueued', the Python frames
    come first: the line after the title is 'Python stack:'."""
    for title in ("READ at", "WRITE at", "Copy enqueued"):
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if line.lstrip().startswith(title) and i + 1 < len(lines):
                if lines[i + 1].strip() != "Python stack:":
                    errors.append("%s: under %r the first line is %r, not 'Python stack:'"
                                  % (where, title, lines[i + 1].strip()))
                break


def check_suite_run(run, what, helpers, errors):
    if run.status != 1:
        errors.append("%s: exit status %d, expected 1 (tests failed)" % (what, run.status))
    if not run.cases:
        errors.append("%s: no JUnit XML results" % what)
        return
    read_line = marker_line(helpers, "read")
    for name, (kind, phase) in RACY.items():
        failed, text = run.cases.get(name, (None, ""))
        if failed is None:
            errors.append("%s: %s did not run" % (what, name))
            continue
        if not failed:
            errors.append("%s: racy %s passed" % (what, name))
            continue
        head = r"syncguard: 1 race during the %s of this test \(%s\)" % (phase, kind)
        if not re.search(head, text):
            errors.append("%s: %s: no %r in its failure text" % (what, name, head))
        if "SUMMARY: syncguard: %s" % kind not in text:
            errors.append("%s: %s: no SUMMARY line of %s in its failure text" % (what, name, kind))
        if "Copy enqueued on" not in text:
            errors.append("%s: %s: no copy stack in its failure text" % (what, name))
        if kind == "early-host-read":
            frame = r"#0 read_early %s:%d \(python\)" % (re.escape(helpers), read_line)
            if not re.search(frame, text):
                errors.append("%s: %s: no Python frame %r" % (what, name, frame))
        python_first(text, errors, "%s: %s" % (what, name))
    own = run.cases.get("test_racy_and_failing", (0, ""))[1]
    if "the test's own failure" not in own:
        errors.append("%s: test_racy_and_failing lost its own failure text" % what)
    for name in sorted(CORRECT):
        failed, text = run.cases.get(name, (None, ""))
        if failed is None:
            errors.append("%s: %s did not run" % (what, name))
        elif failed:
            errors.append("%s: correct %s failed:\n%s" % (what, name, text))
    summary = run.out.partition("syncguard: races outside any test")[2]
    if not summary:
        errors.append("%s: no 'races outside any test' section" % what)
    for label in ("during setup of session-scoped fixture 'racy_session_resource'",
                  "during collection of test_collect_race.py",
                  "during start-up (conftest.py files and plugins)"):
        if label not in summary:
            errors.append("%s: %r not among the races outside tests" % (what, label))
    if "Fatal Python error" in run.out:
        errors.append("%s: faulthandler caught a fault" % what)


def main():
    py = find_python()
    if not py:
        verdict("SKIP", "no python3 with pytest and pytest-xdist", 77)
    if not (3, 9) <= tuple(map(int, subprocess.check_output(
            [py, "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
            universal_newlines=True).split())) <= (3, 13):
        verdict("SKIP", "syncguard reads the frames of Python 3.9 to 3.13 only", 77)
    lib, libcuda = os.environ.get("SYNCGUARD_LIB"), os.environ.get("SG_LIBCUDA")
    if not lib or not os.path.isfile(lib):
        verdict("FAIL", "no library: set SYNCGUARD_LIB (got %r)" % lib, 1)
    if not libcuda or not os.path.isfile(libcuda):
        verdict("FAIL", "no emulator: set SG_LIBCUDA (got %r)" % libcuda, 1)
    work = tempfile.mkdtemp(prefix="sg-pytest-")
    errors, runs = [], []
    try:
        for f in os.listdir(SUITE):
            if f.endswith(".py"):
                shutil.copy(os.path.join(SUITE, f), work)
        shutil.copy(os.path.join(HERE, "..", "lib", "sgcuda.py"), work)
        with open(os.path.join(work, "pytest.ini"), "w") as f:
            f.write("[pytest]\n")
        helpers = os.path.join(work, "cuda_helpers.py")

        for what, args in (("serial", []), ("-n 2", ["-n", "2"])):
            run = run_pytest(py, work, ["--syncguard"] + args, {"SG_SUITE_STARTUP_RACE": "1"})
            runs.append((what, run))
            check_suite_run(run, what, helpers, errors)
        xdist = runs[1][1].out
        for label in ("collection of test_collect_race.py, worker gw0",
                      "collection of test_collect_race.py, worker gw1",
                      "start-up (conftest.py files and plugins), worker gw0"):
            if label not in xdist:
                errors.append("-n 2: %r not among the races outside tests" % label)

        # Abort mode: the first race ends pytest; its report names the test.
        run = run_pytest(py, work, ["--syncguard", "--syncguard-mode=abort",
                                    "test_races.py::test_no_cuda",
                                    "test_races.py::test_racy_read",
                                    "test_races.py::test_synchronized_read"])
        runs.append(("abort", run))
        if run.status != -6 and run.status != 134:
            errors.append("abort mode: exit status %d, expected SIGABRT" % run.status)
        if "Context: test_races.py::test_racy_read (call)" not in run.out:
            errors.append("abort mode: the report does not name test_racy_read (call)")
        if "SUMMARY: syncguard: early-host-read" not in run.out:
            errors.append("abort mode: no report")

        # Without --syncguard the plugin does nothing: no preload, no word.
        run = run_pytest(py, work, ["test_races.py::test_no_cuda",
                                    "test_races.py::test_synchronized_read"])
        runs.append(("plain", run))
        if run.status != 0 or "syncguard:" in run.out or "==WARNING" in run.out:
            errors.append("without --syncguard: status %d, or syncguard spoke" % run.status)

        # A library that is not there.
        run = run_pytest(py, work, ["--syncguard", "test_races.py::test_no_cuda"],
                         {"SYNCGUARD_LIB": os.path.join(work, "no-such-lib.so")})
        runs.append(("missing library", run))
        if run.status != 4 or "no-such-lib.so" not in run.out:
            errors.append("a missing library: status %d (expected 4, usage error) or "
                          "its path not named" % run.status)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if errors:
        for what, run in runs:
            print("--- pytest %s (exit %d) ---\n%s" % (what, run.status, run.out))
        verdict("FAIL", "; ".join(errors), 1)
    verdict("PASS", "racy tests failed with their reports, correct ones passed, serial and "
            "-n 2; abort mode names the test", 0)


if __name__ == "__main__":
    main()
