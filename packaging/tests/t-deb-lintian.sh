#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-deb-lintian.sh: lintian finds no error in the .deb (its warnings and
# other tags are printed).
. "$(dirname "$0")/lib.sh"
[ "${STATIC_DEPS:-no}" = no ] || skip "a --enable-static-deps build makes no .deb"
deb=${DEB:?}
[ -f "$deb" ] || skip "no $deb"
command -v lintian >/dev/null || skip "lintian is not installed (Debian package lintian)"
lintian --tag-display-limit 0 "$deb" >"$tmp/lintian" 2>&1
rc=$?
cat "$tmp/lintian"
grep -q '^E: ' "$tmp/lintian" && fail "lintian reports errors"
[ "$rc" = 0 ] || grep -q '^[EW]: ' "$tmp/lintian" || fail "lintian exit $rc"
finish
