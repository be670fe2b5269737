#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-wheel.sh: the wheel (make wheel) is tagged with the glibc its library
# needs, installs with pip into a fresh virtual environment from the file
# alone (--no-index), and what it installs works without this build:
# `syncguard -- racy`, `python -m syncguard -- racy` (exit 66, a report),
# syncguard-report on the JSON of that run, the pytest11 entry point.
. "$(dirname "$0")/lib.sh"
[ "${STATIC_DEPS:-no}" = yes ] || skip "a default build makes no wheel (configure --enable-static-deps)"
py=${PYTHON:-python3}
whl=$(ls "$BUILDDIR"/dist/syncguard-"$VERSION"-py3-none-manylinux_*_x86_64.whl 2>/dev/null | head -n 1)
[ -n "$whl" ] || skip "no wheel in $BUILDDIR/dist (make wheel needs python3-build, python3-setuptools, python3-wheel)"
"$py" -m venv --help >/dev/null 2>&1 || skip "$py has no venv module (Debian: python3-venv)"
echo "wheel: $(basename "$whl")"

# The tag is the glibc the bundled library needs.
glibc=$(sh "$SRCDIR/packaging/glibc-needs.sh" --self-contained "$LIB") || fail "glibc-needs.sh refused $LIB"
want=syncguard-$VERSION-py3-none-manylinux_$(echo "$glibc" | tr . _)_x86_64.whl
[ "$(basename "$whl")" = "$want" ] || fail "wheel $(basename "$whl"), want $want"

# A fresh environment; pip takes nothing but the file (no index).
venv=$tmp/venv
"$py" -m venv "$venv" || { echo "FAIL: python3 -m venv"; exit 1; }
"$venv/bin/python" -m pip install --no-index --no-cache-dir --disable-pip-version-check "$whl" ||
    { echo "FAIL: pip install --no-index $whl"; exit 1; }
site=$("$venv/bin/python" -c 'import syncguard, os; print(os.path.dirname(syncguard.__file__))')
echo "installed in $site"
lib=$("$venv/bin/python" -c 'import syncguard; print(syncguard.library_path())')
[ "$lib" = "$site/lib/libsyncguard.so" ] || fail "library_path() = $lib"
others=$(needed "$lib" | grep -vxE 'libc\.so\.6|libdl\.so\.2|libpthread\.so\.0|libm\.so\.6|librt\.so\.1|ld-linux-x86-64\.so\.2')
[ -z "$others" ] || fail "the installed library needs $others"
"$venv/bin/python" -c 'import syncguard; print(syncguard.__version__)' | grep -qx "$VERSION" || fail "syncguard.__version__"
"$venv/bin/syncguard" --version | grep -qx "syncguard $VERSION" || fail "syncguard --version"
"$venv/bin/syncguard" --help | grep -q '^Usage: syncguard' || fail "syncguard --help"

# Nothing of this build: a clean environment, another directory.
build_racy
cd "$tmp" || exit 1
clean="env -i PATH=/usr/bin:/bin HOME=$tmp"
run_racy "syncguard (the wheel's console script)" $clean "$venv/bin/syncguard" --color=never -- "$tmp/racy"
run_racy "python -m syncguard" $clean "$venv/bin/python" -m syncguard --color=never -- "$tmp/racy"
# The console script preloads the bundled library.
$clean "$venv/bin/syncguard" -- sh -c 'echo "preload=$LD_PRELOAD"' >"$tmp/preload" 2>&1
grep -qx "preload=$lib" "$tmp/preload" || fail "LD_PRELOAD under syncguard: $(cat "$tmp/preload")"
# A missing command: the launcher's 127.
$clean "$venv/bin/syncguard" -- "$tmp/no-such-program" >/dev/null 2>&1
rc=$?
[ "$rc" = 127 ] || fail "syncguard -- no-such-program: exit $rc, want 127"

$clean "$venv/bin/syncguard" --json-path="$tmp/j" -- "$tmp/racy" >/dev/null 2>&1
$clean "$venv/bin/syncguard-report" "$tmp"/j.* >"$tmp/table" 2>&1
rc=$?
cat "$tmp/table"
[ "$rc" = 1 ] || fail "syncguard-report: exit $rc, want 1 (a race)"
grep -q 'early-host-read' "$tmp/table" || fail "syncguard-report's table lacks the race"

# The plugin imports pytest, which a fresh environment lacks (pip installs
# it with pytest, not the wheel): the entry point must name the installed
# module, which pytest loads.
"$venv/bin/python" - "$site" <<'PY' || fail "the pytest11 entry point"
import importlib.util, os, sys
from importlib.metadata import entry_points
eps = entry_points()
group = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", [])
found = [e for e in group if e.name == "syncguard"]
assert found and found[0].value == "syncguard.pytest_plugin", found
spec = importlib.util.find_spec(found[0].value)
assert spec and spec.origin == os.path.join(sys.argv[1], "pytest_plugin.py"), spec
PY
finish
