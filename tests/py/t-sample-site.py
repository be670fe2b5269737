#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sampled mode names a Python program's enqueue sites by their Python
frame, in the text summary and the JSON one, even when the code object is
gone by exit.

The child (this file, SG_PY_CHILD=1) enqueues a copy through ctypes at two
sites, 3 times each, synchronizing after each: enqueue_copy in
copy_site.py, and enqueue_gone, a function compiled from text as
"gone_site.py" and deleted (its code object freed, its memory taken by
other objects) before the program exits normally. Under
sample=2:sample_first=1 each site guards 2 copies and samples 1 out, and
the exit summary (verbosity=1, and json_path's summary line) must name the
sites "copy_site.py:LINE in enqueue_copy" and "gone_site.py:2 in
enqueue_gone": the Python line, not a native frame of ctypes, libffi or
the driver, and the line the frame ran, named while it ran.
Needs CPython 3.9 to 3.13 (else skip). Environment: SYNCGUARD_LIB,
SG_LIBCUDA. Exit: 0 pass, 1 fail, 77 skip.
"""
import ctypes
import gc
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "t-sample-site"
NBYTES = 4096
GONE = ("def enqueue_gone(cu, host, dev, n, s):\n"
        "    return cu.cuMemcpyDtoHAsync_v2(host, dev, n, s)\n")


def verdict(word, msg, code):
    print("%s %s: %s" % (word, NAME, msg))
    sys.exit(code)


def check(r, what):
    if r != 0:
        print("child: %s failed with CUresult %d" % (what, r), file=sys.stderr)
        sys.exit(2)


def child():
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "lib"))
    import copy_site
    import sgcuda
    cu = sgcuda.load(os.environ["SG_LIBCUDA"])
    stream, dptr, host = sgcuda.copy_buffers(cu, check, NBYTES, 0x5A)
    gone = {}
    exec(compile(GONE, "gone_site.py", "exec"), gone)
    for _ in range(3):
        check(copy_site.enqueue_copy(cu, host, dptr.value, NBYTES, stream), "copy_site")
        check(cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
        check(gone["enqueue_gone"](cu, host, dptr.value, NBYTES, stream), "gone_site")
        check(cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
    del gone
    gc.collect()
    # Objects of every small size, kept to the end: they take the memory of
    # the freed code object and its strings, so that naming them at exit
    # would read something else.
    global JUNK
    JUNK = [b"\xff" * n for n in range(1024) for _ in range(8)]
    good = ctypes.string_at(host.value, NBYTES) == b"\x5a" * NBYTES
    print("child: %s" % ("ok" if good else "wrong data"))
    sys.exit(0 if good else 3)  # a normal exit: the summary is written at exit


def marker_line(path, name):
    with open(path) as f:
        for no, text in enumerate(f, 1):
            if text.rstrip().endswith("# SG-LINE: " + name):
                return no
    raise LookupError(name)


def main():
    if not (3, 9) <= sys.version_info[:2] <= (3, 13):
        verdict("SKIP", "syncguard reads Python 3.9 to 3.13", 77)
    lib = os.environ.get("SYNCGUARD_LIB")
    if not lib or not os.path.isfile(lib):
        verdict("FAIL", "no library: set SYNCGUARD_LIB", 1)
    want = ["copy_site.py:%d in enqueue_copy" % marker_line(os.path.join(HERE, "copy_site.py"), "copy"),
            "gone_site.py:2 in enqueue_gone"]
    with tempfile.TemporaryDirectory(prefix="sg-sample-site-") as d:
        env = dict(os.environ, SG_PY_CHILD="1", LD_PRELOAD=lib, PYTHONDONTWRITEBYTECODE="1",
                   SYNCGUARD_OPTIONS="sample=2:sample_first=1:verbosity=1:json_path=%s/sg" % d)
        p = subprocess.run([sys.executable, os.path.abspath(__file__)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, errors="replace")
        objs = [json.loads(l) for f in os.listdir(d) for l in open(os.path.join(d, f)) if l.strip()]
    out = p.stdout
    errors = []
    if p.returncode != 0 or "child: ok" not in out:
        errors.append("child: exit status %d" % p.returncode)
    text = re.findall(r"^==\d+==syncguard:   (\d+) guarded, (\d+) sampled out: (.*)$", out, re.M)
    if text != [("2", "1", w) for w in want]:
        errors.append("text summary: %r, want %r" % (text, want))
    summaries = [o for o in objs if o.get("type") == "summary"]
    sites = summaries[0].get("sampling", {}).get("sites", []) if len(summaries) == 1 else None
    got = [(x["guarded"], x["sampled_out"], x["where"]) for x in sites or []]
    if got != [(2, 1, w) for w in want]:
        errors.append("JSON summary's sites: %r, want %r" % (got, want))
    if errors:
        sys.stderr.write("--- child output ---\n%s" % out)
        verdict("FAIL", "; ".join(errors), 1)
    verdict("PASS", "sites named by their Python lines, text and JSON", 0)


if __name__ == "__main__":
    if os.environ.get("SG_PY_CHILD") == "1":
        child()
    else:
        main()
