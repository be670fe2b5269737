#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# make deb: syncguard_VERSION_ARCH.deb from `make install` into a staging
# root (prefix /usr, the library in its own folder /usr/lib/TRIPLET/syncguard
# since it is a preload module, not a library to link with), laid out as
# Debian policy asks: stripped library, man pages and docs compressed,
# copyright from LICENSE, dependencies from dpkg-shlibdeps. It is the
# distribution-style (dynamic) build: Depends names libunwind8 and libdw1;
# the self-contained library (--enable-static-deps) is the wheel's.
#
# Environment (set by the deb target of packaging/local.mk): SRCDIR,
# BUILDDIR, VERSION, STAGE (the staging root `make install` filled),
# TRIPLET; DEB_MAINTAINER and SOURCE_DATE_EPOCH may be set by the caller.
set -eu
: "${SRCDIR:?}" "${BUILDDIR:?}" "${VERSION:?}" "${STAGE:?}" "${TRIPLET:?}"
maintainer=${DEB_MAINTAINER:-syncguard developers <syncguard@users.noreply.github.com>}
die() { echo "make deb: $*" >&2; exit 1; }
arch=$(dpkg --print-architecture)
root=$STAGE
pkglib=/usr/lib/$TRIPLET/syncguard
doc=$root/usr/share/doc/syncguard
[ -f "$root$pkglib/libsyncguard.so" ] || die "no $pkglib/libsyncguard.so in $root"
# Reproducible: every date is that of the source (SOURCE_DATE_EPOCH, else
# configure.ac's last change).
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$SRCDIR/configure.ac")}
export SOURCE_DATE_EPOCH

# ---- the files: no libtool archive; the library stripped as dh_strip does
rm -f "$root$pkglib"/*.la
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root$pkglib/libsyncguard.so"
chmod 0644 "$root$pkglib/libsyncguard.so"
# The launcher as installed, but knowing the package's paths (configure's
# prefix may be another).
sed -e "s|@PACKAGE_VERSION@|$VERSION|g" -e 's|@prefix@|/usr|g' -e 's|@exec_prefix@|/usr|g' \
    -e "s|@libdir@|$pkglib|g" -e 's|@abs_top_builddir@|/nonexistent|g' \
    "$SRCDIR/tools/syncguard.in" >"$root/usr/bin/syncguard"
chmod 0755 "$root/usr/bin/syncguard"
# Debian's Python is /usr/bin/python3 (what dh_python3 would write).
sed -i '1s|^#!/usr/bin/env python3$|#!/usr/bin/python3|' "$root/usr/bin/syncguard-report"
gzip -9nf "$root"/usr/share/man/man*/*.[0-9]

mkdir -p "$doc"
gzip -9nc "$SRCDIR/README.md" >"$doc/README.md.gz"
{
    printf 'syncguard (%s) unstable; urgency=medium\n\n' "$VERSION"
    printf '  * Upstream release %s, packaged by make deb.\n\n' "$VERSION"
    printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz"

# ---- copyright, machine-readable, from LICENSE: a reference to Debian's
# copy when LICENSE is the Apache License 2.0 word for word, else its text.
license=$SRCDIR/LICENSE
[ -f "$license" ] || die "no LICENSE in $SRCDIR"
{
    echo 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/'
    echo 'Upstream-Name: syncguard'
    echo
    echo 'Files: *'
    echo "Copyright: $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y) the syncguard developers"
    common=/usr/share/common-licenses/Apache-2.0
    if [ -f "$common" ] && diff -qBw "$license" "$common" >/dev/null; then
        echo 'License: Apache-2.0'
        echo
        echo 'License: Apache-2.0'
        echo ' Licensed under the Apache License, Version 2.0 (the "License"); you may not'
        echo ' use this file except in compliance with the License.'
        echo ' .'
        echo ' Unless required by applicable law or agreed to in writing, software'
        echo ' distributed under the License is distributed on an "AS IS" BASIS, WITHOUT'
        echo ' WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the'
        echo ' License for the specific language governing permissions and limitations'
        echo ' under the License.'
        echo ' .'
        echo ' On Debian systems, the complete text of the Apache License, Version 2.0,'
        echo ' can be found in "/usr/share/common-licenses/Apache-2.0".'
    else
        echo 'License: other'
        sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$license"
    fi
} >"$doc/copyright"

# ---- DEBIAN/control: dependencies of the library and the scripts
work=$BUILDDIR/_deb/work
rm -rf "$work"
mkdir -p "$work/debian"
printf 'Source: syncguard\n\nPackage: syncguard\nArchitecture: any\n' >"$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O "$root$pkglib/libsyncguard.so" 2>/dev/null) ||
    die "dpkg-shlibdeps failed on libsyncguard.so"
depends=$(printf '%s\n' "$shlibs" | sed -n 's/^shlibs:Depends=//p')
depends="${depends:+$depends, }python3"
installed=$(du -sk --apparent-size "$root/usr" | cut -f1)
mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: syncguard
Version: $VERSION
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed
Depends: $depends
Section: devel
Priority: optional
Description: race detector for asynchronous CUDA copies
 syncguard reports host accesses to the pinned memory of an asynchronous
 CUDA copy that the host has not yet observed to be complete (CUDA's
 happens-before rules, not timing), and frees of that memory while a copy
 is in flight, with both stacks. libsyncguard.so is preloaded into an
 unmodified program (CUDA C/C++ with the static or shared runtime,
 PyTorch, Numba) by the syncguard launcher; syncguard-report merges the
 JSON reports of a whole job.
CONTROL

# ---- permissions, checksums, the archive
find "$root" -type d -exec chmod 0755 {} +
find "$root/usr/share" -type f -exec chmod 0644 {} +
(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
out=$BUILDDIR/syncguard_${VERSION}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "make deb: $out"
