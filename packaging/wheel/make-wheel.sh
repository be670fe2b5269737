#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# make wheel: dist/syncguard-VERSION-py3-none-manylinux_X_Y_x86_64.whl from
# python/ (the package's own code) and what the build made: the
# self-contained libsyncguard.so (configure --enable-static-deps: it must
# need glibc alone), the launcher and syncguard-report. X.Y is the oldest
# glibc the library loads with (packaging/glibc-needs.sh), so pip installs
# it exactly where it runs. Built with Debian's python3-build,
# python3-setuptools and python3-wheel, without isolation: nothing is
# fetched.
#
# Environment (set by the wheel target of packaging/local.mk): SRCDIR,
# BUILDDIR, VERSION, LIB (the built library), PYTHON.
set -eu
: "${SRCDIR:?}" "${BUILDDIR:?}" "${VERSION:?}" "${LIB:?}" "${PYTHON:=python3}"
die() { echo "make wheel: $*" >&2; exit 1; }
[ -f "$LIB" ] || die "no $LIB: run make first"
glibc=$(sh "$SRCDIR/packaging/glibc-needs.sh" --self-contained "$LIB") ||
    die "the wheel needs the self-contained library: configure with --enable-static-deps"
case $(uname -m) in
x86_64) ;;
*) die "x86_64 only" ;;
esac
plat=manylinux_$(echo "$glibc" | tr . _)_x86_64
# The Python with the build tools: configure's, else Debian's.
for py in "$PYTHON" /usr/bin/python3; do
    "$py" -c 'import build, setuptools, wheel' 2>/dev/null && break
    py=
done
[ -n "$py" ] || die "neither $PYTHON nor /usr/bin/python3 has build, setuptools and wheel (Debian: python3-build python3-setuptools python3-wheel)"
PYTHON=$py

stage=$BUILDDIR/_wheel
rm -rf "$stage"
mkdir -p "$stage"
# The source tree may be read-only (make distcheck): copy, then make ours.
cp -R "$SRCDIR/python/." "$stage/"
chmod -R u+w "$stage"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
pkg=$stage/syncguard
mkdir -p "$pkg/lib" "$pkg/libexec"
cp "$LIB" "$pkg/lib/libsyncguard.so"
strip --strip-debug "$pkg/lib/libsyncguard.so"
chmod 0755 "$pkg/lib/libsyncguard.so"
# The launcher: the installed one, but the library always comes from
# SYNCGUARD_LIB (syncguard/__main__.py sets it to the bundled one).
sed -e "s|@PACKAGE_VERSION@|$VERSION|g" -e 's|@prefix@|/nonexistent|g' -e 's|@exec_prefix@|/nonexistent|g' \
    -e 's|@libdir@|/nonexistent|g' -e 's|@abs_top_builddir@|/nonexistent|g' \
    "$SRCDIR/tools/syncguard.in" >"$pkg/libexec/syncguard"
chmod 0755 "$pkg/libexec/syncguard"
cp "$SRCDIR/tools/syncguard-report" "$pkg/_report.py"
printf '# Written by make wheel.\nversion = "%s"\n' "$VERSION" >"$pkg/_version.py"
cp "$SRCDIR/README.md" "$SRCDIR/LICENSE" "$stage/"
printf '[bdist_wheel]\npython_tag = py3\nplat_name = %s\n' "$plat" >"$stage/setup.cfg"

mkdir -p "$BUILDDIR/dist"
(cd "$stage" && "$PYTHON" -m build --no-isolation --wheel --outdir "$BUILDDIR/dist" .) \
    >"$stage/build.log" 2>&1 || { tail -n 40 "$stage/build.log" >&2; die "python3 -m build failed"; }
whl=$BUILDDIR/dist/syncguard-$VERSION-py3-none-$plat.whl
[ -f "$whl" ] || die "python3 -m build made no $whl: $(ls "$BUILDDIR/dist")"
echo "make wheel: $whl (libsyncguard.so needs glibc $glibc or newer)"
