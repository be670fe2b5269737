#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The text report of d2h_async_read_race, against a golden file.

What changes from run to run or machine to machine is masked: pids, thread
ids, addresses, module offsets, the directory of source files (the build
may be out of tree), and the C library's frames (their names, lines and
number depend on the glibc version: a run of them becomes one "<libc>"
frame). The test's own functions, file names and lines are kept.

The program's frames depend on inlining: d2h_async_read_race.golden is
the report of a build with optimization (make check's -O2: count_wrong is
inlined into main), d2h_async_read_race.noinline.golden of one without
(-O0); either passes. SG_GOLDEN_UPDATE=FILE writes this run's normalized
report to FILE instead.
"""
import difflib
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402

GOLDENS = sorted(glob.glob(os.path.join(t.HERE, "d2h_async_read_race*.golden")))
FRAME = re.compile(r"^    #(\d+) 0x[0-9a-f]+(?: (.*))?$")
MODULE = re.compile(r" \(([^()+]+)\+0x[0-9a-f]+\)$")
FILE = re.compile(r" (\S*/)?([^/\s]+:\d+)( \(|$)")


def is_libc(rest):
    m = MODULE.search(rest or "")
    return bool(m) and re.match(r"(libc[.-]|ld-linux|ld-)", m.group(1)) is not None


def mask_frame(rest):
    if rest is None:
        return "0xADDR"
    rest = MODULE.sub(lambda m: " (%s+0xOFF)" % m.group(1), rest)
    return "0xADDR " + FILE.sub(lambda m: " %s%s" % (m.group(2), m.group(3)), rest)


def normalize(text):
    """Masked text; frames renumbered once runs of libc frames are folded
    (numbering_ok checks the original numbers)."""
    out, libc_run = [], False
    for line in text.splitlines():
        m = FRAME.match(line)
        if not m:
            libc_run = False
            line = re.sub(r"==\d+==", "==PID==", line)
            line = re.sub(r"thread \d+", "thread TID", line)
            out.append(re.sub(r"0x[0-9a-f]+", "0xADDR", line))
            continue
        if is_libc(m.group(2)):
            if not libc_run:
                out.append(("frame", "<libc>"))
            libc_run = True
            continue
        libc_run = False
        out.append(("frame", mask_frame(m.group(2))))
    lines, n = [], 0
    for item in out:
        if isinstance(item, tuple):
            lines.append("    #%d %s" % (n, item[1]))
            n += 1
        else:
            lines.append(item)
            n = 0
    return "\n".join(lines) + "\n"


def numbering_ok(text):
    """Each stack's frames count up from 0."""
    expect = 0
    for line in text.splitlines():
        m = FRAME.match(line)
        if not m:
            expect = 0
            continue
        if int(m.group(1)) != expect:
            return False
        expect += 1
    return True


def main():
    r = t.run([t.drv("d2h_async_read_race")], "color=never")
    t.expect(r.status == 66, "exit status %d, expected 66 (%r)" % (r.status, r))
    t.expect(numbering_ok(r.err), "frames not numbered 0, 1, 2...:\n" + r.err)
    got = normalize(r.err)
    update = os.environ.get("SG_GOLDEN_UPDATE")
    if update:
        with open(update, "w") as f:
            f.write(got)
        t.passed("wrote %s" % update)
    t.expect(GOLDENS, "no golden file next to the test")
    diffs = []
    for golden in GOLDENS:
        with open(golden) as f:
            want = f.read()
        if got == want:
            t.passed("text report matches %s" % os.path.basename(golden))
        diffs.append("".join(difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), os.path.basename(golden), "this run")))
    sys.stdout.write(min(diffs, key=len))
    t.failed("the text report matches no golden file (closest diff above)")

main()
