#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-deb-apt.sh: `apt install ./syncguard_*.deb` installs it on this machine
# and /usr/bin/syncguard runs the racy example (exit 66, a report); then
# the package is purged. It changes the machine: it runs only when
# SG_TEST_APT_INSTALL=1 (CI sets it), as root, with syncguard not already
# installed.
. "$(dirname "$0")/lib.sh"
[ "${STATIC_DEPS:-no}" = no ] || skip "a --enable-static-deps build makes no .deb"
[ "${SG_TEST_APT_INSTALL:-0}" = 1 ] || skip "installs into this machine: only with SG_TEST_APT_INSTALL=1"
[ "$(id -u)" = 0 ] || skip "not root"
deb=${DEB:?}
[ -f "$deb" ] || skip "no $deb"
dpkg-query -W -f='${Status}' syncguard 2>/dev/null | grep -q 'install ok installed' &&
    skip "syncguard is already installed here"
cp "$deb" "$tmp/" && chmod 0755 "$tmp" && chmod 0644 "$tmp/$(basename "$deb")"
DEBIAN_FRONTEND=noninteractive apt-get install -y "$tmp/$(basename "$deb")" || fail "apt install ./$(basename "$deb") failed"
if [ -x /usr/bin/syncguard ]; then
    build_racy
    run_racy "/usr/bin/syncguard installed by apt" /usr/bin/syncguard --color=never -- "$tmp/racy"
    man -w syncguard >/dev/null 2>&1 || [ ! -x /usr/bin/man ] || fail "man -w syncguard finds no page"
else
    fail "no /usr/bin/syncguard after apt install"
fi
DEBIAN_FRONTEND=noninteractive apt-get purge -y syncguard >/dev/null || fail "apt-get purge syncguard failed"
[ ! -e /usr/bin/syncguard ] || fail "/usr/bin/syncguard left after purge"
finish
