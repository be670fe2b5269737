#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""syncguard-report --format=sarif and --format=junit.

On hand-written files (a native race, a Python one through the CUDA
libraries, the same race from two processes) and on the JSON file of a real
racy program (d2h_async_read_race under the preload):
  - the SARIF log validates against the SARIF 2.1.0 schema shipped in the
    tree (sarif-2.1.0-subset.schema.json, offline, with python3-jsonschema);
    each distinct race is one result of its kind's rule, located at the
    racing line, the copy's line a related location, file names under
    --srcroot relative to it, both stacks, the occurrence count;
  - the JUnit XML parses; one failed testcase per distinct race, its text
    with both stacks (Python frames first); none: one passing testcase;
  - -o writes a file; the exit status is the table's (0 none, 1 races).
jsonschema is looked for in this Python, then python3, then /usr/bin/python3;
without it the test skips (fails when CI is set: dev/install-deps.sh
installs it)."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reportlib as t  # noqa: E402

SCHEMA = os.path.join(t.HERE, "sarif-2.1.0-subset.schema.json")

VALIDATE = """
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema, format_checker=jsonschema.FormatChecker()).iter_errors(
    json.load(open(sys.argv[2]))), key=lambda e: list(e.path))
for e in errors:
    print("%s: %s" % ("/".join(map(str, e.path)) or "(root)", e.message))
sys.exit(1 if errors else 0)
"""


def validator():
    for py in (sys.executable, "python3", "/usr/bin/python3"):
        try:
            r = subprocess.run([py, "-c", "import jsonschema"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        except OSError:
            continue
        if r.returncode == 0:
            return py
    if os.environ.get("CI"):
        t.failed("no python3 with jsonschema (python3-jsonschema; dev/install-deps.sh)")
    t.skipped("no python3 with jsonschema (Debian: python3-jsonschema)")


def validate(py, path, what):
    r = subprocess.run([py, "-c", VALIDATE, SCHEMA, path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    t.expect(r.returncode == 0, "%s: the SARIF log does not validate:\n%s" % (what, r.stdout))


def native(fn, file, line, module="app"):
    return {"pc": "0x1000", "function": fn, "file": file, "line": line, "module": module,
            "offset": "0x10"}


def python(fn, file, line):
    return {"python": True, "function": fn, "file": file, "line": line}


def race(pid, rid, kind, summary, access, copy, api="cuMemcpyDtoHAsync"):
    return {"type": "race", "id": rid, "kind": kind, "in_flight": True, "pid": pid, "rank": 0,
            "tid": pid, "address": "0x2000", "offset": 0,
            "copy": {"api": api, "size": 64, "host_address": "0x2000",
                     "direction": "device-to-host",
                     "stream": {"handle": "0x1", "kind": "user", "blocking": False},
                     "tid": pid, "stack": copy},
            "access": {"type": "read" if kind == "early-host-read" else "write",
                       "stack": access},
            "explanation": "The host has not synchronized with anything since the copy was "
                           "enqueued.",
            "summary": "%s %s" % (kind, summary)}


def summary(pid, counts):
    return {"type": "summary", "pid": pid, "rank": 0, "copies_guarded": 3,
            "races": {}, "reports": len(counts), "repeats": 0, "suppressed": 0,
            "counts": [{"id": k, "count": v} for k, v in counts.items()],
            "suppressions_used": []}


def write(path, objs):
    with open(path, "w") as f:
        for o in objs:
            f.write(json.dumps(o) + "\n")


def native_race(pid):
    # A glibc inline (system header) above the program's line, then main.
    return race(pid, "n%d" % pid, "early-host-read", "app.c:29 in sum",
                [native("memcpy", "/usr/include/x86_64-linux-gnu/bits/string_fortified.h", 29),
                 native("sum", "/proj/src/app.c", 29), native("main", "/proj/src/app.c", 50)],
                [native("cuMemcpyDtoHAsync_v2", None, 0, "libcuda.so.1"),
                 native("main", "/proj/src/app.c", 44)])


def python_race(pid):
    interp = [native("_PyEval_EvalFrameDefault", None, 0, "python3.11"),
              native("ffi_call", None, 0, "libffi.so.8")]
    return race(pid, "p%d" % pid, "early-host-write", "train.py:12 in fill",
                [native("__memset_avx2", None, 0, "libc.so.6")] + interp +
                [python("fill", "/proj/train.py", 12), python("<module>", "/proj/train.py", 30)],
                [native("cuMemcpyHtoDAsync_v2", None, 0, "libcuda.so.1")] + interp +
                [python("stage", "/proj/data/loader.py", 7),
                 python("<module>", "/proj/train.py", 28)],
                api="cuMemcpyHtoDAsync")


def by_rule(log):
    return {r["ruleId"]: r for r in log["runs"][0]["results"]}


def physical(loc):
    p = loc["physicalLocation"]
    return p["artifactLocation"].get("uriBaseId"), p["artifactLocation"]["uri"], \
        p["region"]["startLine"]


def hand_written(py, d):
    pyrace = python_race(1)
    pyrace["context"] = "tests/test_train.py::test_fill (call)"
    write(os.path.join(d, "sg.json.1"), [native_race(1), pyrace,
                                         summary(1, {"n1": 3, "p1": 1})])
    write(os.path.join(d, "sg.json.2"), [native_race(2), summary(2, {"n2": 2})])
    sarif = os.path.join(d, "out.sarif")
    r = t.run_tool(["--format=sarif", "--srcroot", "/proj", "-o", sarif, d])
    t.expect(r.status == 1 and r.out == "", "sarif -o: status %d, stdout %r" % (r.status, r.out))
    validate(py, sarif, "hand-written")
    with open(sarif) as f:
        log = json.load(f)
    t.expect(log["version"] == "2.1.0" and len(log["runs"]) == 1, "sarif: one 2.1.0 run")
    run = log["runs"][0]
    t.expect(run["originalUriBaseIds"]["SRCROOT"]["uri"] == "file:///proj/",
             "sarif: SRCROOT %r" % run["originalUriBaseIds"])
    rules = [x["id"] for x in run["tool"]["driver"]["rules"]]
    t.expect(len(run["results"]) == 2, "sarif: %d results, not 2" % len(run["results"]))
    res = by_rule(log)
    n, p = res.get("early-host-read"), res.get("early-host-write")
    t.expect(n is not None and p is not None, "sarif: results %r" % list(res))
    for x in (n, p):
        t.expect(rules[x["ruleIndex"]] == x["ruleId"] and x["level"] == "error",
                 "sarif: ruleIndex/level of %s" % x["ruleId"])
    # The program's line, not glibc's inline header nor the CUDA library.
    t.expect(physical(n["locations"][0]) == ("SRCROOT", "src/app.c", 29),
             "sarif: access location %r" % n["locations"][0])
    t.expect(physical(n["relatedLocations"][0]) == ("SRCROOT", "src/app.c", 44),
             "sarif: copy location %r" % n["relatedLocations"][0])
    t.expect(n["occurrenceCount"] == 5 and n["properties"]["processes"] == 2,
             "sarif: count %r, processes %r" % (n["occurrenceCount"], n["properties"]))
    t.expect([len(s["frames"]) for s in n["stacks"]] == [3, 2], "sarif: stacks of the race")
    t.expect("cuMemcpyDtoHAsync" in n["message"]["text"], "sarif: message names the copy API")
    # Python: the innermost Python frames.
    t.expect(physical(p["locations"][0]) == ("SRCROOT", "train.py", 12),
             "sarif: Python access location %r" % p["locations"][0])
    t.expect(physical(p["relatedLocations"][0]) == ("SRCROOT", "data/loader.py", 7),
             "sarif: Python copy location %r" % p["relatedLocations"][0])
    t.expect(p["properties"].get("contexts") == ["tests/test_train.py::test_fill (call)"]
             and "contexts" not in n["properties"], "sarif: contexts %r" % p["properties"])
    # Outside --srcroot: an absolute file URI.
    r = t.run_tool(["--format=sarif", "--srcroot", "/elsewhere", d])
    log = json.loads(r.out)
    t.expect(physical(by_rule(log)["early-host-read"]["locations"][0])
             == (None, "file:///proj/src/app.c", 29), "sarif: absolute URI outside srcroot")

    junit = os.path.join(d, "out.xml")
    r = t.run_tool(["--format=junit", "-o", junit, d])
    t.expect(r.status == 1, "junit: status %d" % r.status)
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    t.expect(root.tag == "testsuites" and suite.get("tests") == "2"
             and suite.get("failures") == "2" and len(cases) == 2,
             "junit: %s tests, %s failures, %d testcases" % (suite.get("tests"),
                                                             suite.get("failures"), len(cases)))
    names = {c.get("classname"): c for c in cases}
    w = names.get("syncguard.early-host-write")
    t.expect(w is not None and w.get("name") ==
             "train.py:12 in fill (copy: loader.py:7 in stage (cuMemcpyHtoDAsync))",
             "junit: testcases %r" % [(c.get("classname"), c.get("name")) for c in cases])
    text = w.find("failure").text
    t.expect("during: tests/test_train.py::test_fill (call)" in text, "junit: context\n" + text)
    t.expect(text.splitlines()[4].strip() == "Python stack:" and
             "#0 fill /proj/train.py:12 (python)" in text and "Native stack:" in text,
             "junit: the failure text shows the Python frames first:\n" + text)
    t.expect("5 occurrences in 2 processes" in
             names["syncguard.early-host-read"].find("failure").text, "junit: counts")


def no_race(py, d):
    write(os.path.join(d, "sg.json.7"), [summary(7, {})])
    r = t.run_tool(["--format=junit", d])
    t.expect(r.status == 0, "junit, no race: status %d" % r.status)
    root = ET.fromstring(r.out)
    cases = root.iter("testcase")
    cases = list(cases)
    t.expect(len(cases) == 1 and not list(cases[0]), "junit, no race: one passing testcase")
    r = t.run_tool(["--format=sarif", d])
    path = os.path.join(d, "none.sarif")
    with open(path, "w") as f:
        f.write(r.out)
    validate(py, path, "no race")
    t.expect(r.status == 0 and json.loads(r.out)["runs"][0]["results"] == [],
             "sarif, no race: empty results")


def real_run(py, d):
    prog = t.drv("d2h_async_read_race")
    prefix = os.path.join(d, "real")
    res = t.run([prog], options="json_path=%s.%%p" % prefix)
    t.expect(res.status == 66, "real run: status %r" % res)
    src = os.path.normpath(os.path.join(t.HERE, "..", "drv"))
    r = t.run_tool(["--format=sarif", "--srcroot", src, d])
    path = os.path.join(d, "real.sarif")
    with open(path, "w") as f:
        f.write(r.out)
    validate(py, path, "real run")
    result = json.loads(r.out)["runs"][0]["results"]
    t.expect(len(result) == 1, "real run: %d results" % len(result))
    loc = result[0]["locations"][0]["physicalLocation"]
    rel = result[0]["relatedLocations"][0]["physicalLocation"]
    t.expect(loc["artifactLocation"]["uri"].endswith("d2h_async_read_race.c")
             and loc["region"]["startLine"] == 30, "real run: access location %r" % loc)
    t.expect(rel["artifactLocation"]["uri"].endswith("d2h_async_read_race.c")
             and rel["region"]["startLine"] == 50, "real run: copy location %r" % rel)
    r = t.run_tool(["--format=junit", d])
    case = ET.fromstring(r.out).find("testsuite/testcase")
    t.expect(case.get("classname") == "syncguard.early-host-read" and
             case.get("name").startswith("d2h_async_read_race.c:30 in "),
             "real run: junit testcase %r" % case.attrib)


def kernel_run(py, d):
    """A kernel's race: its own rule, the kernel named in the message and the
    related location (the launch)."""
    prog = t.drv("k_launch_read_race")
    res = t.run([prog], options="json_path=%s.%%p" % os.path.join(d, "k"))
    t.expect(res.status == 66, "kernel run: status %r" % res)
    r = t.run_tool(["--format=sarif", d])
    path = os.path.join(d, "k.sarif")
    with open(path, "w") as f:
        f.write(r.out)
    validate(py, path, "kernel run")
    run = json.loads(r.out)["runs"][0]
    (result,) = run["results"]
    t.expect(result["ruleId"] == "kernel-early-host-read", "kernel run: rule %r" % result["ruleId"])
    t.expect("the kernel sgt_fill was launched by cuLaunchKernel" in result["message"]["text"],
             "kernel run: message %r" % result["message"]["text"])
    related = result["relatedLocations"][0]["message"]["text"]
    t.expect(related == "the kernel sgt_fill, launched by cuLaunchKernel",
             "kernel run: related %r" % related)
    rules = {x["id"]: x["name"] for x in run["tool"]["driver"]["rules"]}
    t.expect(rules.get("kernel-early-host-read") == "KernelEarlyHostRead", "kernel run: rules %r" % rules)


def main():
    py = validator()
    with t.tmpdir() as d:
        hand_written(py, d)
    with t.tmpdir() as d:
        no_race(py, d)
    with t.tmpdir() as d:
        real_run(py, d)
    with t.tmpdir() as d:
        kernel_run(py, d)
    t.passed("SARIF validates (SARIF 2.1.0 schema subset) and locates the racing lines; "
             "JUnit parses, one testcase per race")


main()
