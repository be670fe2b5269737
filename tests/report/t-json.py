#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""json_path: every line of the file parses, the race and summary objects
have their fields with the right types, the file is named like log_path's
(PREFIX.PID, or %p in the prefix), and strings are escaped (a program
whose file name holds a quote, a backslash, a tab, a control character,
UTF-8 and a byte that is not UTF-8)."""
import json
import os
import re
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402

HEX = re.compile(r"^0x[0-9a-f]+$")
KINDS = ("early-host-read", "early-host-write", "free-in-flight", "kernel-early-host-read",
         "kernel-early-host-write", "copy-overlap")


def typed(obj, key, types, where):
    t.expect(key in obj, "%s: no %r in %s" % (where, key, json.dumps(obj)[:300]))
    v = obj[key]
    ok = isinstance(v, types) and not (isinstance(v, bool) and bool not in types)
    t.expect(ok, "%s: %r is %r, expected %s" % (where, key, v, types))
    return v


def hexstr(obj, key, where):
    v = typed(obj, key, (str,), where)
    t.expect(HEX.match(v), "%s: %r is %r, expected 0x..." % (where, key, v))


def check_frame(f, where):
    if f.get("python"):
        t.expect(f["python"] is True, where + ": python is not true")
        for k in ("function", "file"):
            typed(f, k, (str, type(None)), where)
        typed(f, "line", (int, type(None)), where)
        return
    hexstr(f, "pc", where)
    for k in ("function", "file", "module"):
        typed(f, k, (str, type(None)), where)
    typed(f, "line", (int, type(None)), where)
    if f["offset"] is not None:
        hexstr(f, "offset", where)


def check_stack(obj, where):
    stack = typed(obj, "stack", (list,), where)
    t.expect(stack, where + ": empty stack")
    for i, f in enumerate(stack):
        t.expect(isinstance(f, dict), "%s: frame %d is not an object" % (where, i))
        check_frame(f, "%s frame %d" % (where, i))
    return stack


def check_race(r, where):
    t.expect(r["type"] == "race", where + ": not a race")
    typed(r, "id", (str,), where)
    kind = typed(r, "kind", (str,), where)
    t.expect(kind in KINDS, where + ": kind " + kind)
    typed(r, "in_flight", (bool,), where)
    for k in ("pid", "tid", "offset"):
        typed(r, k, (int,), where)
    typed(r, "rank", (int, type(None)), where)
    hexstr(r, "address", where)
    c = typed(r, "copy", (dict,), where)
    typed(c, "api", (str,), where + " copy")
    typed(c, "size", (int,), where + " copy")
    hexstr(c, "host_address", where + " copy")
    t.expect(c.get("direction") in ("device-to-host", "host-to-device", "kernel"),
             where + ": direction")
    typed(c, "kernel", (str,) if c.get("direction") == "kernel" else (type(None),),
          where + " copy")
    t.expect(c.get("operation") in ("copy", "memset", "write-value", "kernel"),
             where + ": operation")
    s = typed(c, "stream", (dict,), where + " copy")
    hexstr(s, "handle", where + " stream")
    t.expect(s.get("kind") in ("legacy", "per-thread", "user"), where + ": stream kind")
    typed(s, "blocking", (bool,), where + " stream")
    typed(c, "tid", (int,), where + " copy")
    check_stack(c, where + " copy")
    a = typed(r, "access", (dict,), where)
    t.expect(a.get("type") in ("read", "write", "free", "copy"), where + ": access type")
    check_stack(a, where + " access")
    typed(r, "explanation", (str,), where)
    summary = typed(r, "summary", (str,), where)
    t.expect(summary.startswith(kind + " "), where + ": summary " + summary)
    t.expect(int(r["address"], 16) - int(c["host_address"], 16) == r["offset"],
             where + ": offset is not address - host_address")


def check_summary(s, where):
    for k in ("pid", "copies_guarded", "reports", "repeats", "suppressed"):
        typed(s, k, (int,), where)
    typed(s, "rank", (int, type(None)), where)
    races = typed(s, "races", (dict,), where)
    for k in KINDS:
        typed(races, k, (int,), where + " races")
    t.expect(sum(races.values()) == s["reports"], where + ": races do not add up to reports")
    for c in typed(s, "counts", (list,), where):
        typed(c, "id", (str,), where + " counts")
        typed(c, "count", (int,), where + " counts")
    typed(s, "suppressions_used", (list,), where)
    stats = typed(s, "stats", (dict,), where)
    for k in ("mprotect_calls", "pages_guarded", "faults_race", "faults_waited", "faults_neighbour",
              "faults_emulated",
              "faults_settled", "faults_stale", "faults_passed_on", "syscall_windows",
              "pinned_huge", "copies_sampled_out", "faults_in_call", "kernel_first_reads",
              "kernel_channels", "mprotect_ns",
              "fault_ns"):
        typed(stats, k, (int,), where + " stats")
    # Every program here guards a copy (protect, then release).
    t.expect(stats["pages_guarded"] >= 1 and stats["mprotect_calls"] >= 2,
             where + ": stats count no guarded page: %r" % stats)


def read_lines(path):
    objs = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            where = "%s:%d" % (os.path.basename(path), n)
            try:
                obj = json.loads(line.decode("utf-8"))
            except ValueError as e:
                t.failed("%s: not JSON (%s): %r" % (where, e, line[:200]))
            t.expect(isinstance(obj, dict), where + ": not an object")
            objs.append((where, obj))
    return objs


def run_json(prog, d, prefix="sg.json", want_kind=None, options=""):
    """Runs prog with json_path=d/prefix (and options); returns (pid, race, summary)."""
    r = t.run([prog], "json_path=" + os.path.join(d, prefix) + (":" + options if options else ""))
    t.expect(r.status == 66, "%s: exit status %d, expected 66" % (prog, r.status))
    pid = int(re.search(r"^==(\d+)==WARNING", r.err, re.M).group(1))
    name = prefix.replace("%p", str(pid)) if "%p" in prefix else "%s.%d" % (prefix, pid)
    path = os.path.join(d, name)
    t.expect(os.path.isfile(path), "no JSON file %s (have %s)" % (name, os.listdir(d)))
    objs = read_lines(path)
    t.expect([o["type"] for _, o in objs] == ["race", "summary"],
             "%s: expected a race and a summary line" % name)
    (w1, race), (w2, summary) = objs
    check_race(race, w1)
    check_summary(summary, w2)
    t.expect(race["pid"] == pid == summary["pid"], name + ": pid")
    t.expect(summary["counts"] == [{"id": race["id"], "count": 1}], name + ": counts")
    t.expect(race["kind"] == want_kind, "%s: kind %s" % (name, race["kind"]))
    text = t.summary_lines(r.err)
    t.expect(text == ["SUMMARY: syncguard: " + race["summary"]],
             "JSON summary %r differs from the text's %r" % (race["summary"], text))
    return race


def main():
    read = t.drv("d2h_async_read_race")
    write = t.drv("h2d_source_write_race")
    free = t.drv("free_while_pending")
    with t.tmpdir() as d:
        race = run_json(read, d, want_kind="early-host-read")
        t.expect(race["copy"]["direction"] == "device-to-host", "read: direction")
        t.expect(race["access"]["type"] == "read", "read: access type")
        t.expect(race["in_flight"] is True, "read: in_flight")
        t.expect(race["access"]["stack"][0]["function"] in ("main", "count_wrong"),
                 "read: access frame 0 is not the test's")
        race = run_json(write, d, "w.%p.jsonl", want_kind="early-host-write")
        t.expect(race["copy"]["direction"] == "host-to-device", "write: direction")
        t.expect(race["access"]["type"] == "write", "write: access type")
        race = run_json(free, d, "free", want_kind="free-in-flight")
        t.expect(race["access"]["type"] == "free", "free: access type")
        race = run_json(t.drv("k_launch_read_race"), d, "k", want_kind="kernel-early-host-read")
        t.expect(race["copy"]["direction"] == "kernel", "kernel: direction")
        t.expect(race["copy"]["kernel"] == "sgt_fill", "kernel: name %r" % race["copy"]["kernel"])
        t.expect(race["copy"]["api"] == "cuLaunchKernel", "kernel: api")
        race = run_json(t.drv("k_launch_ex_alias_write_race"), d, "kw",
                        want_kind="kernel-early-host-write", options="kernel_args=2")
        t.expect(race["access"]["type"] == "write", "kernel write: access type")
        t.expect(race["copy"]["operation"] == "kernel", "kernel write: operation")
        race = run_json(t.drv("dw_memset_race"), d, "m", want_kind="early-host-read")
        t.expect(race["copy"]["operation"] == "memset", "memset: operation")
        t.expect(race["copy"]["api"] == "cuMemsetD32Async", "memset: api")
        race = run_json(t.drv("dw_write_value_host_write_race"), d, "v",
                        want_kind="early-host-write")
        t.expect(race["copy"]["operation"] == "write-value", "write value: operation")
        race = run_json(t.drv("cc_h2d_reads_d2h_race"), d, "cc", want_kind="copy-overlap")
        t.expect(race["access"]["type"] == "copy", "copy overlap: access type")
        t.expect(race["access"]["api"] == "cuMemcpyHtoDAsync", "copy overlap: the second copy")
        t.expect(race["copy"]["api"] == "cuMemcpyDtoHAsync", "copy overlap: the first copy")

        weird = b'we"ird\\na\tme\x01-\xc3\xa9-\xff'
        prog = os.path.join(os.fsencode(d), weird)
        shutil.copy(read, prog)
        race = run_json(os.fsdecode(prog), d, "weird", want_kind="early-host-read")
        modules = {f["module"] for f in race["access"]["stack"]}
        want = weird.decode("utf-8", "surrogateescape").replace("\udcff", "\u00ff")
        t.expect(want in modules, "module name %r not among %r" % (want, modules))
    t.passed("race and summary lines parse, fields typed, names escaped")


main()
