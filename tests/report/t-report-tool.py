#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""syncguard-report on hand-written files (no library needed): the same
race from several processes is one row whose count uses each process's
summary "counts" (1 without a summary), rows are sorted by count, log files
in a directory are skipped, globs are expanded; exit 0 without races, 1
with, 2 on bad input with a message naming the file and line."""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402


def frame(fn, file, line, module="app"):
    return {"pc": "0x1000", "function": fn, "file": file, "line": line, "module": module,
            "offset": "0x10"}


def race(pid, rid, kind="early-host-read", where=("main", "/src/app.c", 10),
         copy=("enqueue", "/src/app.c", 5)):
    loc = "%s:%d in %s" % (os.path.basename(where[1]), where[2], where[0])
    return {"type": "race", "id": rid, "kind": kind, "in_flight": True, "pid": pid, "rank": 0,
            "tid": pid, "address": "0x2000", "offset": 0,
            "copy": {"api": "cuMemcpyDtoHAsync", "size": 64, "host_address": "0x2000",
                     "direction": "device-to-host",
                     "stream": {"handle": "0x1", "kind": "user", "blocking": False},
                     "tid": pid, "stack": [frame(*copy)]},
            "access": {"type": "read", "stack": [frame(*where)]},
            "explanation": "", "summary": "%s %s" % (kind, loc)}


def summary(pid, counts, suppressed=0):
    return {"type": "summary", "pid": pid, "rank": 0, "copies_guarded": 9,
            "races": {"early-host-read": len(counts), "early-host-write": 0},
            "reports": len(counts), "repeats": sum(counts.values()) - len(counts),
            "suppressed": suppressed,
            "counts": [{"id": k, "count": v} for k, v in counts.items()],
            "suppressions_used": []}


def write(path, objs, extra=""):
    with open(path, "w") as f:
        for o in objs:
            f.write(json.dumps(o) + "\n")
        f.write(extra)


def rows_of(out):
    lines = out.splitlines()
    t.expect(lines[0].split()[:2] == ["COUNT", "PROCS"], "no table:\n" + out)
    return [line.split() for line in lines[1:-1]]


def aggregate(d):
    write(os.path.join(d, "sg.json.1"), [race(1, "a"), summary(1, {"a": 5})])
    write(os.path.join(d, "sg.json.2"), [race(2, "b"), summary(2, {"b": 2}, suppressed=4)])
    # No summary (the process was killed): its race counts once.
    write(os.path.join(d, "sg.json.3"), [race(3, "c")])
    write(os.path.join(d, "sg.json.4"), [race(4, "d", "early-host-write",
                                               ("fill", "/src/b.c", 7)), summary(4, {"d": 20})])
    write(os.path.join(d, "sg.json.5"), [summary(5, {})])
    with open(os.path.join(d, "log.1"), "w") as f:
        f.write("==1==WARNING: syncguard: ...\n")
    r = t.run_tool([d])
    t.expect(r.status == 1, "aggregate: exit status %d (%r)" % (r.status, r))
    rows = rows_of(r.out)
    t.expect([row[:4] for row in rows] == [["20", "1", "early-host-write", "b.c:7"],
                                          ["8", "3", "early-host-read", "app.c:10"]],
             "aggregate: rows\n" + r.out)
    t.expect("app.c:5 in enqueue (cuMemcpyDtoHAsync)" in r.out, "aggregate: copy site\n" + r.out)
    t.expect(r.out.splitlines()[-1] ==
             "2 races, 28 occurrences, in 4 of 5 processes (5 files); 4 suppressed",
             "aggregate: totals\n" + r.out)
    r = t.run_tool([os.path.join(d, "sg.json.[12]")])
    t.expect(r.status == 1 and rows_of(r.out)[0][:2] == ["7", "2"], "glob:\n" + r.out)


def kernel(d):
    """A kernel's race names its kernel next to the launch's entry point."""
    k = race(7, "k", "kernel-early-host-read")
    k["copy"].update({"api": "cuLaunchKernel", "direction": "kernel", "kernel": "fill"})
    write(os.path.join(d, "sg.json.7"), [k, summary(7, {"k": 1})])
    r = t.run_tool([os.path.join(d, "sg.json.7")])
    t.expect(r.status == 1 and rows_of(r.out)[0][2] == "kernel-early-host-read",
             "kernel: rows\n" + r.out)
    t.expect("app.c:5 in enqueue (cuLaunchKernel fill)" in r.out, "kernel: launch site\n" + r.out)


def clean(d):
    write(os.path.join(d, "sg.json.9"), [summary(9, {})])
    r = t.run_tool([os.path.join(d, "sg.json.9")])
    t.expect(r.status == 0, "no races: exit status %d" % r.status)
    t.expect("COUNT" not in r.out and r.out.startswith("0 races"), "no races:\n" + r.out)


def bad(d):
    path = os.path.join(d, "bad.json")
    write(path, [summary(1, {})], "{not json\n")
    r = t.run_tool([path])
    t.expect(r.status == 2 and (path + ":2: not JSON") in r.err, "bad JSON: %r" % r)
    broken = race(1, "a")
    del broken["copy"]["stack"]
    write(path, [broken])
    r = t.run_tool([path])
    t.expect(r.status == 2 and (path + ":1: copy: no \"stack\"") in r.err, "no stack: %r" % r)
    r = t.run_tool([os.path.join(d, "missing")])
    t.expect(r.status == 2 and "missing: no such file" in r.err, "missing: %r" % r)
    r = t.run_tool([os.path.join(d, "nothing*")])
    t.expect(r.status == 2 and "no file matches" in r.err, "empty glob: %r" % r)


def main():
    with t.tmpdir() as d:
        aggregate(d)
    with t.tmpdir() as d:
        clean(d)
        kernel(d)
        bad(d)
    t.passed("merges processes, counts repeats, sorts; exit 0/1/2")


main()
