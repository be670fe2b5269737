#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-process files: fork_race forks 3 children that each race twice at
the same site, with log_path=DIR/log.%p and json_path=DIR/sg.json. There
must be 3 log files and 3 JSON files, one of each per child, named with
its pid and holding only its reports (the parent guarded nothing and
writes nothing). syncguard-report on DIR gives one row: 3 processes, 6
occurrences. The same with 3 runs of d2h_async_read_race in parallel,
ranks 0 to 2, and prefixes with %r (PREFIX.rN.PID). Children forked after
the parent raced have counts and files of their own: none."""
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402


def by_pid(d, prefix):
    """{pid: path} of the files DIR/PREFIX<pid>."""
    out = {}
    for name in os.listdir(d):
        m = re.match(re.escape(prefix) + r"(\d+)$", name)
        if m:
            out[int(m.group(1))] = os.path.join(d, name)
    return out


def check_log(pid, path):
    with open(path) as f:
        text = f.read()
    pids = set(int(p) for p in re.findall(r"^==(\d+)==", text, re.M))
    t.expect(pids == {pid}, "%s: messages of pids %r" % (path, pids))
    t.expect(len(t.summary_lines(text)) == 1, "%s: not one report:\n%s" % (path, text))
    t.expect("1 repeat not shown" in text, "%s: repeat not counted:\n%s" % (path, text))


def check_json(pid, path, rank=0):
    with open(path) as f:
        objs = [json.loads(line) for line in f]
    t.expect([o["type"] for o in objs] == ["race", "summary"], "%s: %r" % (path, objs))
    t.expect(all(o["pid"] == pid and o["rank"] == rank for o in objs),
             "%s: pid or rank is not %d, %d" % (path, pid, rank))
    return objs


def table_rows(out):
    lines = out.splitlines()
    t.expect(lines and lines[0].split()[:2] == ["COUNT", "PROCS"], "no table:\n" + out)
    return [line.split() for line in lines[1:-1]]


def check_tool(d, count):
    r = t.run_tool([d])
    t.expect(r.status == 1, "syncguard-report: exit status %d (%r)" % (r.status, r))
    rows = table_rows(r.out)
    t.expect(len(rows) == 1, "syncguard-report: %d rows, expected 1:\n%s" % (len(rows), r.out))
    t.expect(rows[0][:3] == [str(count), "3", "early-host-read"],
             "syncguard-report: row %r, expected %d occurrences in 3 processes" % (rows[0], count))
    t.expect(" in 3 of 3 processes" in r.out, "syncguard-report totals:\n" + r.out)


def forked(d):
    prog = t.report_bin("fork_race")
    r = t.run([prog, "3", "2"], "log_path=%s/log.%%p:json_path=%s/sg.json" % (d, d))
    t.expect(r.status == 0 and "children: 66 66 66" in r.out, "fork_race: %r %s" % (r, r.out))
    logs, jsons = by_pid(d, "log."), by_pid(d, "sg.json.")
    t.expect(len(logs) == 3, "%d log files, expected 3: %r" % (len(logs), os.listdir(d)))
    t.expect(set(logs) == set(jsons), "log and JSON files differ: %r" % os.listdir(d))
    t.expect(len(os.listdir(d)) == 6, "stray files: %r" % os.listdir(d))
    for pid in logs:
        check_log(pid, logs[pid])
        objs = check_json(pid, jsons[pid])
        t.expect(objs[1]["counts"][0]["count"] == 2, "%s: count" % jsons[pid])
    check_tool(d, 6)


def forked_after_race(d):
    """Children forked after the parent raced exit 0 and write nothing:
    reports, counts and files are per process."""
    prog = t.report_bin("fork_race")
    r = t.run([prog, "after", "3"], "log_path=%s/log.%%p:json_path=%s/sg.json" % (d, d))
    t.expect(r.status == 66 and "children: 0 0 0" in r.out,
             "fork after a race: %r, stdout %s" % (r, r.out))
    logs, jsons = by_pid(d, "log."), by_pid(d, "sg.json.")
    t.expect(len(logs) == 1 and set(logs) == set(jsons),
             "fork after a race: files %r, expected the parent's log and JSON" % os.listdir(d))


def ranks(d):
    prog = t.drv("d2h_async_read_race")
    env = dict(os.environ, LD_PRELOAD=t.library(),
               SYNCGUARD_OPTIONS="log_path=%s/log.r%%r:json_path=%s/sg.r%%r" % (d, d))
    procs = [subprocess.Popen([prog], env=dict(env, RANK=str(i)), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for i in range(3)]
    for i, p in enumerate(procs):
        t.expect(p.wait() == 66, "rank %d: exit status %d" % (i, p.returncode))
        check_json(p.pid, os.path.join(d, "sg.r%d.%d" % (i, p.pid)), rank=i)
        t.expect(os.path.isfile(os.path.join(d, "log.r%d.%d" % (i, p.pid))), "rank %d: log" % i)
    check_tool(d, 3)


def main():
    with t.tmpdir() as d:
        forked(d)
    with t.tmpdir() as d:
        forked_after_race(d)
    with t.tmpdir() as d:
        ranks(d)
    t.passed("one log and one JSON file per process; syncguard-report: 1 race, 3 processes")


main()
