#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""suppressions=FILE: a matching suppression (by function, file path, file
base name or module; with comments and blank lines) silences the report,
the exit status is 0 and "Suppressions used:" lists it with its hits; the
race is still synchronized (the program sees the copied data), also under
halt_on_error=1 and mode=abort. One that does not match (another name,
another kind) changes nothing. An unknown kind, a malformed line or a file
that cannot be read stops the process at start-up with exit 1 and a
message naming the file (and line)."""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402

PROG = None


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def used_lines(err):
    """The "Suppressions used:" block: [(hits, "kind:pattern"), ...]."""
    m = re.search(r"^==\d+==syncguard: Suppressions used:\n  hits  suppression\n((?:.+\n)*)",
                  err, re.M)
    if not m:
        return []
    return [(int(h), s) for h, s in re.findall(r"^\s*(\d+)  (\S+) \(", m.group(1), re.M)]


def suppressed(d, text, options="", what=""):
    supp = write(d, "supp.txt", text)
    r = t.run([PROG], "suppressions=%s%s" % (supp, ":" + options if options else ""))
    label = "%s %r" % (what, text)
    t.expect(r.status == 0, "%s: exit status %d, expected 0 (%r)" % (label, r.status, r))
    t.expect("WARNING: syncguard" not in r.err and not t.summary_lines(r.err),
             "%s: the race was reported:\n%s" % (label, r.err))
    t.expect("check: ok" in r.out, "%s: the race was not synchronized: %s" % (label, r.out))
    t.expect("1 suppressed" in r.err, "%s: no '1 suppressed' in the summary:\n%s" % (label, r.err))
    return r


def not_suppressed(d, text, what=""):
    supp = write(d, "supp.txt", text)
    r = t.run([PROG], "suppressions=" + supp)
    t.expect(r.status == 66, "%s %r: exit status %d, expected 66" % (what, text, r.status))
    t.expect(len(t.summary_lines(r.err)) == 1, "%s %r: no report" % (what, text))
    t.expect("Suppressions used" not in r.err, "%s %r: a suppression was used" % (what, text))


def start_fails(d, supp, want):
    r = t.run([PROG], "suppressions=" + supp)
    t.expect(r.status == 1, "suppressions=%s: exit status %d, expected 1" % (supp, r.status))
    t.expect(re.search(want, r.err), "suppressions=%s: message %r lacks %r" % (supp, r.err, want))
    t.expect("check: ok" not in r.out, "suppressions=%s: the program ran" % supp)


def matching(d):
    r = suppressed(d, "# comments and blank lines are ignored\n\n  race:main  \n", what="function")
    t.expect(used_lines(r.err) == [(1, "race:main")], "used: %r" % used_lines(r.err))
    suppressed(d, "early-host-read:*/d2h_async_read_race.c\n", what="file path")
    suppressed(d, "race:d2h_async_read_rac?.c\n", what="file base name")
    suppressed(d, "race:d2h_async*race\n", what="module")
    suppressed(d, "access_site:main\n", what="access_site")
    suppressed(d, "copy_site:main\n", what="copy_site")
    r = suppressed(d, "race:nothing_here\nearly-host-read:m*n\nrace:main\n", what="first match")
    t.expect(used_lines(r.err) == [(1, "early-host-read:m*n")], "used: %r" % used_lines(r.err))
    suppressed(d, "race:main\n", "halt_on_error=1", what="halt_on_error")
    suppressed(d, "race:main\n", "mode=abort", what="mode=abort")


def free_kind(d):
    """free-in-flight applies to frees only, and silences them."""
    prog = t.drv("free_while_pending")
    supp = write(d, "supp.txt", "free-in-flight:main\n")
    r = t.run([prog], "suppressions=" + supp)
    t.expect(r.status == 0 and "WARNING: syncguard" not in r.err,
             "free-in-flight:main did not silence the free: %r" % r)
    t.expect(used_lines(r.err) == [(1, "free-in-flight:main")], "free: used %r" % used_lines(r.err))


def kernel_kinds(d):
    """kernel-early-host-read silences a kernel's race, and only that kind
    does: early-host-read is a copy's."""
    prog = t.drv("k_launch_read_race")
    supp = write(d, "supp.txt", "kernel-early-host-read:main\n")
    r = t.run([prog], "suppressions=" + supp)
    t.expect(r.status == 0 and "WARNING: syncguard" not in r.err,
             "kernel-early-host-read:main did not silence the kernel's race: %r" % r)
    t.expect("check: ok" in r.out, "kernel: the race was not synchronized: %s" % r.out)
    supp = write(d, "supp.txt", "early-host-read:main\n")
    r = t.run([prog], "suppressions=" + supp)
    t.expect(r.status == 66 and len(t.summary_lines(r.err)) == 1,
             "early-host-read:main silenced a kernel's race: %r" % r)
    supp = write(d, "supp.txt", "copy_site:k_fill\n")
    r = t.run([prog], "suppressions=" + supp)
    t.expect(r.status == 0, "copy_site:k_fill did not match the launch's stack: %r" % r)


def json_summary(d):
    supp = write(d, "supp.txt", "race:main\n")
    r = t.run([PROG], "suppressions=%s:json_path=%s/sg" % (supp, d))
    t.expect(r.status == 0, "json: exit status %d" % r.status)
    files = [f for f in os.listdir(d) if f.startswith("sg.")]
    t.expect(len(files) == 1, "json: files %r" % files)
    with open(os.path.join(d, files[0])) as f:
        objs = [json.loads(line) for line in f]
    t.expect([o["type"] for o in objs] == ["summary"], "json: %r" % objs)
    s = objs[0]
    t.expect(s["suppressed"] == 1 and s["reports"] == 0, "json: counts %r" % s)
    t.expect(s["suppressions_used"] == [{"kind": "race", "pattern": "main", "line": 1,
                                         "hits": 1}], "json: used %r" % s["suppressions_used"])


def failures(d):
    not_suppressed(d, "race:no_such_function\n", "another name")
    not_suppressed(d, "early-host-write:main\n", "another kind")
    not_suppressed(d, "free-in-flight:main\n", "another kind")
    not_suppressed(d, "race:mai\n", "a prefix (globs match whole names)")
    bad = write(d, "bad.txt", "# ok\nrace:main\nbogus:main\n")
    start_fails(d, bad, re.escape(bad) + r":3: unknown suppression kind 'bogus'")
    bad = write(d, "bad2.txt", "race main\n")
    start_fails(d, bad, re.escape(bad) + r":1: expected KIND:PATTERN")
    missing = os.path.join(d, "missing.txt")
    start_fails(d, missing, re.escape(missing) + r": cannot open: No such file")
    start_fails(d, d, re.escape(d) + r": not a regular file")
    if os.geteuid() != 0:
        locked = write(d, "locked.txt", "race:main\n")
        os.chmod(locked, 0)
        start_fails(d, locked, re.escape(locked) + r": cannot open: Permission denied")


def repeats(d):
    """Every occurrence of a suppressed race counts as a hit."""
    d0 = os.environ.get("SG_REPORT_BIN_DIR", os.path.join(os.getcwd(), "report"))
    prog = os.path.join(d0, "fork_race")
    if not os.access(prog, os.X_OK):
        return
    supp = write(d, "supp.txt", "race:fork_race.c\n")
    r = t.run([prog, "0", "3"], "suppressions=" + supp)
    t.expect(r.status == 0, "repeats: exit status %d" % r.status)
    t.expect(used_lines(r.err) == [(3, "race:fork_race.c")], "repeats: used %r" % used_lines(r.err))
    t.expect("3 suppressed" in r.err, "repeats: %s" % r.err)


def main():
    global PROG
    PROG = t.drv("d2h_async_read_race")
    with t.tmpdir() as d:
        matching(d)
        json_summary(d)
        free_kind(d)
        kernel_kinds(d)
        failures(d)
        repeats(d)
    t.passed("matching suppressions silence and are listed; others do not; bad files stop")


main()
