#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-deb.sh: the .deb (make deb) holds what it should where Debian wants it,
# with correct metadata, and, unpacked into a scratch root (dpkg -x), its
# launcher runs the racy example on the emulator: exit 66 and a report.
. "$(dirname "$0")/lib.sh"
[ "${STATIC_DEPS:-no}" = no ] || skip "a --enable-static-deps build makes no .deb"
deb=${DEB:?}
[ -f "$deb" ] || skip "no $deb (make deb needs dpkg-deb and dpkg-shlibdeps)"
triplet=${TRIPLET:?}
pkglib=usr/lib/$triplet/syncguard/libsyncguard.so

dpkg-deb --info "$deb" >"$tmp/info" || fail "dpkg-deb --info failed"
cat "$tmp/info"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = syncguard ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$VERSION" ] || fail "Version: $(field Version), want $VERSION"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture: $(field Architecture)"
for dep in libc6 libunwind8 libdw1 python3; do
    field Depends | grep -q "\\b$dep\\b" || fail "Depends lacks $dep: $(field Depends)"
done

dpkg-deb --contents "$deb" | awk '{print $1, $2, $NF}' >"$tmp/contents"
for f in ./usr/bin/syncguard ./usr/bin/syncguard-report "./$pkglib" \
    ./usr/share/man/man1/syncguard.1.gz ./usr/share/man/man1/syncguard-report.1.gz \
    ./usr/share/man/man5/syncguard-suppressions.5.gz ./usr/share/man/man7/syncguard.7.gz \
    ./usr/share/doc/syncguard/copyright ./usr/share/doc/syncguard/changelog.gz \
    ./usr/share/doc/syncguard/README.md.gz; do
    grep -q " $f\$" "$tmp/contents" || fail "the package lacks $f"
done
grep -q ' root/root ' "$tmp/contents" || fail "files not owned by root"
grep -q '\.la$' "$tmp/contents" && fail "the package holds a libtool archive"
grep -q '^-rwxr-xr-x root/root ./usr/bin/syncguard$' "$tmp/contents" || fail "usr/bin/syncguard not 0755"

root=$tmp/root
dpkg -x "$deb" "$root" || fail "dpkg -x failed"
grep -q 'Apache License, Version 2.0' "$root/usr/share/doc/syncguard/copyright" || fail "copyright does not name the license"
readelf -SW "$root/$pkglib" | grep -q '\.debug_info' && fail "the library is not stripped"
head -n 1 "$root/usr/bin/syncguard-report" | grep -qx '#!/usr/bin/python3' || fail "syncguard-report's interpreter"
"$root/usr/bin/syncguard" --version | grep -qx "syncguard $VERSION" || fail "syncguard --version"
# The launcher finds the installed library at the package's path, which a
# scratch root does not have: SYNCGUARD_LIB names the unpacked one.
grep -q "^libdir=\"/$(dirname "$pkglib")\"\$" "$root/usr/bin/syncguard" || fail "the launcher's libdir is not /$(dirname "$pkglib")"
build_racy
run_racy "syncguard from the .deb in a scratch root" \
    env SYNCGUARD_LIB="$root/$pkglib" "$root/usr/bin/syncguard" --color=never -- "$tmp/racy"
# syncguard-report from the package merges the JSON report of that run.
env SYNCGUARD_LIB="$root/$pkglib" "$root/usr/bin/syncguard" --json-path="$tmp/j" -- "$tmp/racy" >/dev/null 2>&1
"$root/usr/bin/syncguard-report" "$tmp"/j.* >"$tmp/table" 2>&1
rc=$?
cat "$tmp/table"
[ "$rc" = 1 ] || fail "syncguard-report: exit $rc, want 1 (a race)"
grep -q 'early-host-read' "$tmp/table" || fail "syncguard-report's table lacks the race"
finish
