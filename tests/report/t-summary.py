#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The exit summary and the text report's colors.

A process that raced 3 times at one site reports once and its exit line
counts 1 race by kind, 2 repeats, 0 suppressed, 3 copies guarded (JSON:
reports 1, repeats 2, count 3). Each kind (early-host-read,
early-host-write, free-in-flight) is counted apart. A process without races says nothing at exit, unless verbosity=1.
color=always paints the banner, frames and SUMMARY with ANSI escapes;
color=never and color=auto (the log is a pipe here) do not."""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402

EXIT_LINE = re.compile(r"^==\d+==syncguard: (\d+) races? reported \((\d+) early-host-read, "
                       r"(\d+) early-host-write, (\d+) free-in-flight, (\d+) "
                       r"kernel-early-host-read, (\d+) kernel-early-host-write, (\d+) "
                       r"copy-overlap, (\d+) device-read-after-write, (\d+) "
                       r"device-write-after-read, (\d+) device-write-after-write\), (\d+) repeats? not "
                       r"shown, (\d+) suppressed; (\d+) cop(?:y|ies) guarded$", re.M)


def exit_counts(err):
    m = EXIT_LINE.findall(err)
    t.expect(len(m) == 1, "not one exit line:\n" + err)
    return tuple(int(x) for x in m[0])


def repeats():
    prog = t.report_bin("fork_race")
    with t.tmpdir() as d:
        r = t.run([prog, "0", "3"], "json_path=%s/sg" % d)
        t.expect(r.status == 66, "repeats: exit status %d (%r)" % (r.status, r))
        t.expect(len(t.summary_lines(r.err)) == 1, "repeats: not one report:\n" + r.err)
        t.expect(exit_counts(r.err) == (1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 3), "repeats: %s" % r.err)
        (path,) = [os.path.join(d, f) for f in os.listdir(d)]
        with open(path) as f:
            race, summary = [json.loads(line) for line in f]
        t.expect((summary["reports"], summary["repeats"], summary["copies_guarded"]) == (1, 2, 3),
                 "repeats: JSON summary %r" % summary)
        t.expect(summary["counts"] == [{"id": race["id"], "count": 3}],
                 "repeats: counts %r" % summary["counts"])


def kinds():
    r = t.run([t.drv("d2h_async_read_race")], "")
    t.expect(exit_counts(r.err)[:6] == (1, 1, 0, 0, 0, 0), "read: %s" % r.err)
    r = t.run([t.drv("h2d_source_write_race")], "")
    t.expect(exit_counts(r.err)[:6] == (1, 0, 1, 0, 0, 0), "write: %s" % r.err)
    r = t.run([t.drv("free_while_pending")], "")
    t.expect(exit_counts(r.err)[:6] == (1, 0, 0, 1, 0, 0), "free: %s" % r.err)
    r = t.run([t.drv("k_launch_read_race")], "")
    t.expect(exit_counts(r.err)[:6] == (1, 0, 0, 0, 1, 0), "kernel read: %s" % r.err)
    r = t.run([t.drv("k_launch_ex_alias_write_race")], "kernel_args=2")
    t.expect(exit_counts(r.err)[:6] == (1, 0, 0, 0, 0, 1), "kernel write: %s" % r.err)
    r = t.run([t.drv("cc_h2d_reads_d2h_race")], "")
    t.expect(exit_counts(r.err)[:7] == (1, 0, 0, 0, 0, 0, 1), "copy overlap: %s" % r.err)


def silent():
    prog = t.drv("d2h_async_stream_sync")
    r = t.run([prog], "")
    t.expect(r.status == 0, "no race: exit status %d" % r.status)
    t.expect("syncguard" not in r.err, "no race, yet syncguard said:\n" + r.err)
    r = t.run([prog], "verbosity=1")
    t.expect(exit_counts(r.err)[:9] == (0, 0, 0, 0, 0, 0, 0, 0, 0), "verbosity=1: %s" % r.err)


def colors():
    prog = t.drv("d2h_async_read_race")
    r = t.run([prog], "color=always")
    t.expect("\033[1m\033[31m==" in r.err, "color=always: no red banner:\n%r" % r.err[:300])
    t.expect(re.search(r"\033\[1m#0\033\[0m", r.err), "color=always: no bold frame number")
    t.expect("\033[1mSUMMARY: syncguard:" in r.err, "color=always: no bold SUMMARY")
    for opt in ("color=never", "color=auto", ""):
        r = t.run([prog], opt)
        t.expect("\033[" not in r.err, "%s: escapes in the report" % (opt or "default"))


def main():
    kinds()
    silent()
    colors()
    repeats()
    t.passed("exit line counts races by kind, repeats, suppressed, copies; colors")


main()
