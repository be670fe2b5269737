#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Python-first reports (python_first, default 1).

The child of test_python_frames.py (a ctypes race: a thread enqueues the
copy, the main thread reads early) runs under the preload three ways:
  - default: under "READ at" and "Copy enqueued" the first line is
    "Python stack:", then the Python frames, then "Native stack:" where each
    run of interpreter and FFI frames (the python executable or libpython,
    _ctypes, libffi, the CUDA driver) is one line "#N ... K interpreter
    frames ...", and the frames after it keep their numbers (N + K);
  - python_first=0: native frames first, every one of them (none folded),
    then "Python stack:";
  - JSON (json_path) keeps every native frame whatever python_first says:
    as many as the python_first=0 text shows.
Needs CPython 3.9 to 3.13 (else skip). Environment: SYNCGUARD_LIB,
SG_LIBCUDA. Exit: 0 pass, 1 fail, 77 skip.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD = os.path.join(HERE, "test_python_frames.py")
NAME = "t-python-first"
FRAME = re.compile(r"^    #(\d+) (.*)$")
FOLD = re.compile(r"^\.\.\. (\d+) interpreter frames \.\.\.$")


def verdict(word, msg, code):
    print("%s %s: %s" % (word, NAME, msg))
    sys.exit(code)


def run_child(options):
    env = dict(os.environ, SG_PY_CHILD="1", LD_PRELOAD=os.environ["SYNCGUARD_LIB"],
               SYNCGUARD_OPTIONS=options, PYTHONDONTWRITEBYTECODE="1")
    env.pop("NO_COLOR", None)
    p = subprocess.run([sys.executable, CHILD], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, errors="replace")
    return p.stdout


def stacks(report):
    """{title: [lines under it, indented by four]} for the access and copy."""
    out, current = {}, None
    for line in report.splitlines():
        s = line.strip()
        if s.startswith(("READ at", "Copy enqueued")):
            current = out.setdefault(s.split()[0], [])
        elif current is not None and line.startswith("    "):
            current.append(s)
        else:
            current = None
    return out


def check_python_first(report, errors):
    for title, lines in stacks(report).items():
        if not lines or lines[0] != "Python stack:":
            errors.append("default: %s does not start with 'Python stack:': %r" % (title, lines[:2]))
            continue
        if "Native stack:" not in lines:
            errors.append("default: %s has no 'Native stack:'" % title)
            continue
        native = lines[lines.index("Native stack:") + 1:]
        expect, folds = 0, 0
        for line in native:
            m = re.match(r"^#(\d+) (.*)$", line)
            if not m or int(m.group(1)) != expect:
                errors.append("default: %s: frame %r where #%d was due" % (title, line, expect))
                break
            fold = FOLD.match(m.group(2))
            if fold:
                folds += 1
                expect += int(fold.group(1))
            else:
                if re.search(r"\((python3[.0-9]*|libpython|_ctypes|libffi|libcuda)", line):
                    errors.append("default: %s: machinery frame not folded: %r" % (title, line))
                expect += 1
        if title == "READ" and not folds:
            errors.append("default: READ: no '... N interpreter frames ...' line: %r" % native)


def native_frames(lines):
    """The native frames of a python_first=0 stack (before 'Python stack:')."""
    out = []
    for line in lines:
        if line == "Python stack:":
            break
        out.append(line)
    return out


def main():
    if not (3, 9) <= sys.version_info[:2] <= (3, 13):
        verdict("SKIP", "syncguard reads Python 3.9 to 3.13", 77)
    lib = os.environ.get("SYNCGUARD_LIB")
    if not lib or not os.path.isfile(lib):
        verdict("FAIL", "no library: set SYNCGUARD_LIB", 1)
    errors = []
    default = run_child("")
    if "SUMMARY: syncguard: early-host-read" not in default:
        verdict("FAIL", "no report:\n" + default, 1)
    check_python_first(default, errors)

    with tempfile.TemporaryDirectory(prefix="sg-pyfirst-") as d:
        flat = run_child("python_first=0:json_path=%s/sg" % d)
        files = [os.path.join(d, f) for f in os.listdir(d)]
        objs = [json.loads(l) for f in files for l in open(f) if l.strip()]
    races = [o for o in objs if o.get("type") == "race"]
    flat_stacks = stacks(flat)
    for title, lines in flat_stacks.items():
        if not lines or not re.match(r"^#0 0x[0-9a-f]+ ", lines[0]):
            errors.append("python_first=0: %s does not start with native #0: %r" % (title, lines[:1]))
        if any(FOLD.match(l.split(" ", 1)[1]) for l in lines if " " in l):
            errors.append("python_first=0: %s folds frames" % title)
        if "Python stack:" not in lines:
            errors.append("python_first=0: %s has no 'Python stack:' after the native frames"
                          % title)
    if len(races) != 1:
        errors.append("json_path: %d race objects, not 1" % len(races))
    else:
        for title, key in (("READ", "access"), ("Copy", "copy")):
            js = [f for f in races[0][key]["stack"] if not f.get("python")]
            shown = native_frames(flat_stacks.get(title, []))
            if len(js) != len(shown) or len(js) < 3:
                errors.append("JSON %s: %d native frames, the python_first=0 text %d"
                              % (key, len(js), len(shown)))
    if errors:
        print("--- default ---\n%s--- python_first=0 ---\n%s" % (default, flat))
        verdict("FAIL", "; ".join(errors), 1)
    verdict("PASS", "Python frames first, interpreter frames folded (python_first=0: all, "
            "native first); JSON has every frame", 0)


if __name__ == "__main__":
    main()
