#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# pytest --syncguard on a GPU with PyTorch: tests/gpu/py/pytest_torch holds a
# racy test (y.to("cpu", non_blocking=True) after heavy GPU work, read before
# synchronizing) and a correct one. Checks, serial and with pytest-xdist
# (-n 2):
#   - pytest (started without the preload: the plugin re-executes it under
#     libsyncguard.so) exits 1; JUnit XML: test_racy_to_cpu failed, its
#     failure text holds the early-host-read report with the Python frames
#     first (the racy line and the copy's line of test_torch_races.py);
#     test_synchronized_to_cpu passed;
#   - the JSON files of the serial run (json_path) give syncguard-report a
#     SARIF result at the racy line and JUnit XML that parses.
#
#   bash tests/gpu/pytest-check.sh     (from anywhere; after building)
#
# Env: SYNCGUARD_LIB (default src/.libs/libsyncguard.so), SYNCGUARD_LIBDIR
# (default .carry/lib, put first on LD_LIBRARY_PATH: what the GPU machine
# lacks), PYTHON (default python3: with torch, pytest, pytest-xdist), OUT
# (when set: the JUnit, SARIF and log files are left there).
# Prints PASS/FAIL/SKIP per check and "N passed, N failed"; exit 0 iff no
# FAIL, 77 when torch, pytest, pytest-xdist or a GPU is missing.
set -u
ulimit -c 0
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) && cd "$ROOT" || exit 2
abspath() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
SYNCGUARD_LIB=$(abspath "${SYNCGUARD_LIB:-src/.libs/libsyncguard.so}")
SYNCGUARD_LIBDIR=$(abspath "${SYNCGUARD_LIBDIR:-.carry/lib}")
PYTHON=${PYTHON:-python3}
SUITE=$ROOT/tests/gpu/py/pytest_torch
export SYNCGUARD_LIB PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=$SYNCGUARD_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONPATH=$ROOT/python${PYTHONPATH:+:$PYTHONPATH}
unset LD_PRELOAD SYNCGUARD_OPTIONS PYTEST_ADDOPTS

WORK=$(mktemp -d "${TMPDIR:-/tmp}/syncguard-pytest.XXXXXX") || exit 2
trap 'rm -rf "$WORK"' EXIT
DEST=${OUT:-$WORK}
mkdir -p "$DEST"

npass=0 nfail=0
result() { # PASS|FAIL|SKIP NAME [WHY]
  echo "$1 $2${3:+: $3}"
  case $1 in PASS) npass=$((npass + 1)) ;; FAIL) nfail=$((nfail + 1)) ;; esac
}

[ -f "$SYNCGUARD_LIB" ] || { result FAIL setup "no library $SYNCGUARD_LIB (build first)"; exit 1; }
if ! LD_PRELOAD=$SYNCGUARD_LIB true 2>"$WORK/probe"; then
  result FAIL setup "the library does not load: $(head -c 300 "$WORK/probe")"; exit 1
fi
if ! "$PYTHON" -c 'import torch, pytest, xdist, sys; sys.exit(0 if torch.cuda.is_available() else 1)' \
    >/dev/null 2>&1; then
  result SKIP pytest-torch "$PYTHON lacks torch, pytest or pytest-xdist, or sees no GPU"; exit 77
fi

# The verdicts of one pytest run, from its JUnit XML and its exit status.
CHECK_RUN='
import re, sys, xml.etree.ElementTree as ET
junit, status, suite = sys.argv[1], int(sys.argv[2]), sys.argv[3]
src = suite + "/test_torch_races.py"
lines = {m.group(1): n for n, l in enumerate(open(src), 1)
         for m in [re.search(r"# SG-LINE: (\S+)", l)] if m}
cases = {}
for c in ET.parse(junit).getroot().iter("testcase"):
    bad = [e for e in c if e.tag in ("failure", "error")]
    cases[c.get("name")] = (bool(bad), "\n".join((e.text or "") for e in bad))
why = []
if status != 1:
    why.append("exit status %d, not 1" % status)
failed, text = cases.get("test_racy_to_cpu", (None, ""))
if not failed:
    why.append("test_racy_to_cpu %s" % ("did not run" if failed is None else "passed"))
else:
    for want in ("syncguard: 1 race during the call of this test (early-host-read)",
                 "SUMMARY: syncguard: early-host-read test_torch_races.py:%d in test_racy_to_cpu"
                 % lines["torch-read"]):
        if want not in text:
            why.append("no %r in its failure text" % want)
    for fn, key in (("test_racy_to_cpu", "torch-read"), ("copy_to_host", "torch-copy")):
        if not re.search(r"#\d+ %s \S*test_torch_races.py:%d \(python\)" % (fn, lines[key]), text):
            why.append("no Python frame %s test_torch_races.py:%d" % (fn, lines[key]))
    t = text.splitlines()
    heads = [t[i + 1].strip() for i, l in enumerate(t[:-1]) if l.lstrip().startswith(("READ at", "Copy enqueued"))]
    if heads != ["Python stack:", "Python stack:"]:
        why.append("the stacks do not start with their Python frames: %r" % heads)
ok, text = cases.get("test_synchronized_to_cpu", (None, ""))
if ok is None or ok:
    why.append("test_synchronized_to_cpu %s" % ("did not run" if ok is None else "failed:\n" + text))
print("; ".join(why))
'

run_suite() { # NAME PYTEST-ARGS...
  local name=$1 junit=$DEST/$1.xml log=$DEST/$1.log status why
  shift
  (cd "$SUITE" && "$PYTHON" -m pytest -p syncguard.pytest_plugin -p no:cacheprovider \
      --rootdir "$SUITE" --syncguard --junitxml "$junit" -rA "$@") >"$log" 2>&1
  status=$?
  if [ ! -f "$junit" ]; then
    result FAIL "$name" "no JUnit XML (exit $status); see $log"; tail -n 30 "$log"; return
  fi
  why=$("$PYTHON" -c "$CHECK_RUN" "$junit" "$status" "$SUITE" 2>&1)
  if [ -z "$why" ]; then result PASS "$name"; else result FAIL "$name" "$why"; tail -n 60 "$log"; fi
}

SYNCGUARD_OPTIONS="json_path=$WORK/sg.%p" run_suite pytest-torch-serial
run_suite pytest-torch-xdist -n 2

# The CI formats from the serial run's JSON files.
read_line=$(grep -n 'SG-LINE: torch-read' "$SUITE/test_torch_races.py" | cut -d: -f1)
"$PYTHON" tools/syncguard-report --format=sarif --srcroot "$ROOT" -o "$DEST/pytest-torch.sarif" "$WORK"/sg.* 2>"$WORK/err"
sarif_status=$?
"$PYTHON" tools/syncguard-report --format=junit -o "$DEST/pytest-torch-races.xml" "$WORK"/sg.* 2>>"$WORK/err"
why=$("$PYTHON" - "$DEST/pytest-torch.sarif" "$DEST/pytest-torch-races.xml" "$read_line" "$sarif_status" <<'EOF' 2>&1
import json, sys, xml.etree.ElementTree as ET
sarif, junit, line, status = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
why = []
if status != 1:
    why.append("syncguard-report exit status %d, not 1" % status)
res = json.load(open(sarif))["runs"][0]["results"]
locs = [r["locations"][0].get("physicalLocation", {}) for r in res if r["ruleId"] == "early-host-read"]
if not any(l.get("artifactLocation", {}).get("uri", "").endswith("test_torch_races.py")
           and l.get("region", {}).get("startLine") == line for l in locs):
    why.append("no SARIF early-host-read result at test_torch_races.py:%d: %r" % (line, locs))
cases = list(ET.parse(junit).getroot().iter("testcase"))
if not any(c.get("classname") == "syncguard.early-host-read" for c in cases):
    why.append("no early-host-read testcase in the JUnit XML")
print("; ".join(why))
EOF
)
if [ -z "$why" ]; then result PASS pytest-torch-report-formats
else result FAIL pytest-torch-report-formats "$why $(cat "$WORK/err")"; fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
