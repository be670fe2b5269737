# SPDX-License-Identifier: Apache-2.0
"""pytest --syncguard: every test during which syncguard reported a race fails,
with the report in its failure text (syncguard-pytest(1)).

How it works:
  * Without the library loaded into pytest's process, the plugin runs pytest
    again under it (os.execve with LD_PRELOAD=libsyncguard.so): the
    preload must be there before the interpreter starts. pytest-xdist
    workers are started by that process and inherit the preload.
  * The library's C API (syncguard._api) counts the races reported so far
    and hands out their reports as JSON. The plugin reads the count at each
    change of "owner" (a test's setup, call or teardown; the setup or
    teardown of a fixture of wider scope than a function; collection;
    the rest of the session) and gives the new races to the owner that
    just ended. In report mode syncguard lets the program go on after a
    report, so the count is up to date when the access returns.
  * A test's races make its report of that phase failed, the reports
    (Python frames first) in its failure text. Races outside any test are
    listed at the end of the session under their phase, and make the
    session fail; pytest-xdist workers send theirs to the controller.
  * Each owner is also named to the library (syncguard_set_context), so
    that a report says which test it happened in: in abort mode the
    process ends at the first report, and that line is the blame.
"""
import os
import re
import sys

import pytest

from syncguard import _api

# Set in the environment of the pytest run under the preload: a second
# re-execution would loop.
REEXEC_MARK = "SYNCGUARD_PYTEST_REEXEC"
PLUGIN_NAME = "syncguard-races"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def pytest_addoption(parser):
    group = parser.getgroup("syncguard", "syncguard (races of asynchronous CUDA copies)")
    group.addoption("--syncguard", action="store_true", default=False,
                    help="run under libsyncguard.so and fail every test during which a "
                         "race was reported")
    group.addoption("--syncguard-mode", choices=("report", "abort"), default=None,
                    help="report (default): report the race, let the test go on with the "
                         "copied data, fail it afterwards; abort: end pytest at the first "
                         "race (its report names the test)")
    group.addoption("--syncguard-lib", default=None, metavar="PATH",
                    help="the libsyncguard.so to preload (default: SYNCGUARD_LIB, next to "
                         "the syncguard package, the build tree, the linker's path)")


# ---- getting under the library ------------------------------------------


def _options_for_child(config):
    """SYNCGUARD_OPTIONS of the run under the preload: exitcode=1 first
    (pytest's own status for failed tests, so that a race gives the same
    status with or without pytest-xdist), then the user's, then the mode."""
    items = ["exitcode=1"]
    if os.environ.get("SYNCGUARD_OPTIONS"):
        items.append(os.environ["SYNCGUARD_OPTIONS"])
    mode = config.getoption("syncguard_mode")
    if mode:
        items.append("mode=" + mode)
    return ":".join(items)


def _reexec_under_library(config):
    lib, tried = _api.find_library(config.getoption("syncguard_lib"))
    if not lib:
        raise pytest.UsageError("--syncguard: libsyncguard.so not found (tried: %s); set "
                                "SYNCGUARD_LIB or --syncguard-lib" % ", ".join(tried))
    env = dict(os.environ)
    env["LD_PRELOAD"] = lib + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    env["SYNCGUARD_OPTIONS"] = _options_for_child(config)
    env[REEXEC_MARK] = lib
    args = [sys.executable, "-m", "pytest"] + list(config.invocation_params.args)
    if config.getoption("syncguard_mode") == "abort" and config.getoption("capture") == "fd":
        # The report goes to file descriptor 2, which fd capture sends to a
        # file that dies with the aborted process.
        args.append("--capture=sys")
    # pytest captures fds 1 and 2 from the start: give them back first, or
    # the new pytest would write into a capture file.
    capman = config.pluginmanager.getplugin("capturemanager")
    if capman is not None:
        capman.stop_global_capturing()
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(str(config.invocation_params.dir))
    os.execve(sys.executable, args, env)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    if not config.getoption("syncguard"):
        return None
    try:
        api = _api.attach()
    except _api.VersionMismatch as e:
        raise pytest.UsageError("--syncguard: %s" % e)
    if api is None:
        if hasattr(config, "workerinput"):
            raise pytest.UsageError("--syncguard: this pytest-xdist worker did not inherit "
                                    "the preload of libsyncguard.so")
        if os.environ.get(REEXEC_MARK):
            raise pytest.UsageError("--syncguard: pytest runs with LD_PRELOAD=%s, but that "
                                    "library's C API is not in the process (not "
                                    "libsyncguard.so, or too old)" % os.environ[REEXEC_MARK])
        _reexec_under_library(config)
    if config.getoption("syncguard_mode") == "abort" and config.getoption("capture") == "fd":
        config.issue_config_time_warning(pytest.PytestConfigWarning(
            "--syncguard-mode=abort with pytest's fd capture: the report of the race that "
            "ends the process goes to a capture file and is lost (use -s or --capture=sys)"),
            stacklevel=2)
    config.pluginmanager.register(Races(config, api), PLUGIN_NAME)
    return None


# ---- who owns a race ------------------------------------------------------


class Owner:
    """A stretch of the run that races are blamed on: a test's phase
    (nodeid and when) or a phase outside any test (label)."""

    def __init__(self, label, nodeid=None, when=None):
        self.label, self.nodeid, self.when = label, nodeid, when


def _test_owner(item, when):
    return Owner("%s (%s)" % (item.nodeid, when), item.nodeid, when)


def _describe(race):
    text = ANSI.sub("", race.get("text") or "").rstrip("\n")
    if not text:
        text = race.get("summary", "?")
    if race.get("repeat"):
        ctx = race.get("context")
        text = ("(the same race as reported before%s: %d occurrence%s so far)\n%s"
                % (" during " + ctx if ctx else "", race.get("count", 0),
                   "" if race.get("count") == 1 else "s", text))
    return text


def _drop_captured_reports(rep, races):
    """The library wrote each report to file descriptor 2 too, which pytest
    captured: the failure text has them already, once is enough."""
    sections = []
    for title, content in rep.sections:
        if title.startswith("Captured stderr"):
            for r in races:
                if r.get("text"):
                    content = content.replace(r["text"], "")
            if not content.strip():
                continue
        sections.append((title, content))
    rep.sections[:] = sections


class Races:
    """The session's bookkeeping: the API's count at the last look, whose
    stretch it is now, what each owner got."""

    def __init__(self, config, api):
        self.config = config
        self.api = api
        self.seen = 0  # what happened before: conftest.py files, plugins
        self.stack = [Owner("start-up (conftest.py files and plugins)")]
        self.by_phase = {}  # (nodeid, when) -> [race]
        self.outside = []  # (label, race)
        self.worker = getattr(config, "workerinput", {}).get("workerid")
        self.account()
        self.api.set_context(self.stack[-1].label)

    # Taking the new races.

    def account(self):
        """Gives the races reported since the last look to the current owner."""
        if self.api.race_count() <= self.seen:
            return
        races = self.api.races(self.seen)
        for r in races:
            r["repeat"] = r.get("first", 0) <= self.seen
        if races:
            self.seen = max(self.seen, max(r.get("last", 0) for r in races))
        owner = self.stack[-1]
        for r in races:
            if owner.nodeid is not None:
                self.by_phase.setdefault((owner.nodeid, owner.when), []).append(r)
            else:
                self.outside.append((owner.label, r))

    def enter(self, owner):
        self.account()
        self.stack.append(owner)
        self.api.set_context(owner.label)

    def leave(self, owner):
        """Ends owner's stretch (if it is the current one: a fixture whose
        setup failed never started its teardown)."""
        if self.stack[-1] is not owner:
            return
        self.account()
        self.stack.pop()
        self.api.set_context(self.stack[-1].label)

    # Tests.

    def _phase(self, item, when):
        self.enter(_test_owner(item, when))
        yield
        self.account()  # makereport takes them, then leaves

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item):
        yield from self._phase(item, "setup")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_call(self, item):
        yield from self._phase(item, "call")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item):
        yield from self._phase(item, "teardown")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        top = self.stack[-1]
        if top.nodeid == item.nodeid and top.when == call.when:
            self.leave(top)
        races = self.by_phase.pop((item.nodeid, call.when), [])
        if races:
            self._fail(rep, call.when, races)

    def _fail(self, rep, when, races):
        kinds = sorted({r.get("kind", "?") for r in races})
        head = "syncguard: %d race%s during the %s of this test (%s)" % (
            len(races), "" if len(races) == 1 else "s", when, ", ".join(kinds))
        body = "\n\n".join(_describe(r) for r in races)
        if rep.failed:
            before = rep.longreprtext
        elif rep.skipped and isinstance(rep.longrepr, tuple):
            before = "(the test was skipped: %s)" % rep.longrepr[2]
        else:
            before = ""
        rep.outcome = "failed"
        if hasattr(rep, "wasxfail"):
            del rep.wasxfail  # an expected failure does not excuse a race
        rep.longrepr = "\n\n".join(p for p in (before, head, body) if p)
        rep.user_properties.append(("syncguard_races", len(races)))
        _drop_captured_reports(rep, races)

    # Fixtures of a wider scope than a test's own, and collection.

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_fixture_setup(self, fixturedef, request):
        """A fixture of wider scope serves many tests and is blamed on none:
        its setup and its teardown are phases of their own. Finalizers run
        last registered first: the one added after the fixture's own makes
        its teardown an owner, the one added before ends it."""
        if fixturedef.scope == "function":
            yield
            return
        what = "%s-scoped fixture %r" % (fixturedef.scope, fixturedef.argname)
        setup, teardown = Owner("setup of " + what), Owner("teardown of " + what)
        fixturedef.addfinalizer(lambda: self.leave(teardown))
        self.enter(setup)
        try:
            yield
        finally:
            self.leave(setup)
        fixturedef.addfinalizer(lambda: self.enter(teardown))

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_make_collect_report(self, collector):
        owner = Owner("collection of %s" % (collector.nodeid or "the session"))
        self.enter(owner)
        try:
            yield
        finally:
            self.leave(owner)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session):
        self.account()  # start-up's
        self.stack[-1] = Owner("the session, outside any test")
        self.api.set_context(self.stack[-1].label)

    # The end.

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        self.account()
        if self.worker is not None:
            self.config.workeroutput["syncguard_outside"] = [
                (label, _describe(r)) for label, r in self.outside]
        if self.outside and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        """pytest-xdist's controller: a worker's races outside its tests."""
        output = getattr(node, "workeroutput", None) or {}
        wid = output.get("workerid") or getattr(node, "gateway", None) and node.gateway.id
        for label, text in output.get("syncguard_outside", []):
            self.outside.append(("%s, worker %s" % (label, wid), {"text": text}))

    def pytest_terminal_summary(self, terminalreporter):
        if not self.outside:
            return
        tr = terminalreporter
        tr.section("syncguard: races outside any test", sep="=", red=True, bold=True)
        for label, r in self.outside:
            tr.write_line("during %s:" % label)
            tr.write_line(r["text"] if "kind" not in r else _describe(r))
            tr.write_line("")
        tr.write_line("%d race report%s outside tests: the session fails"
                      % (len(self.outside), "" if len(self.outside) == 1 else "s"))
