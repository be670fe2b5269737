#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
#   sh packaging/glibc-needs.sh LIB        prints the oldest glibc LIB loads
#                                          with (e.g. 2.17)
#   sh packaging/glibc-needs.sh --self-contained LIB
#                                          the same, after checking that LIB
#                                          needs glibc's libraries alone
#
# The oldest glibc is the highest GLIBC_x.y version among the symbols LIB
# takes from glibc (objdump -T): the dynamic linker refuses LIB on an older
# one. glibc's libraries are libc, libdl, libpthread, libm, librt and the
# dynamic linker itself (which provides __tls_get_addr).
set -eu
check=0
[ "${1-}" = --self-contained ] && { check=1; shift; }
lib=${1:?usage: glibc-needs.sh [--self-contained] LIB}
[ -f "$lib" ] || { echo "glibc-needs: no such file: $lib" >&2; exit 1; }
if [ "$check" = 1 ]; then
    others=$(readelf -dW "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
        grep -vxE 'libc\.so\.6|libdl\.so\.2|libpthread\.so\.0|libm\.so\.6|librt\.so\.1|ld-linux-x86-64\.so\.2' || true)
    if [ -n "$others" ]; then
        echo "glibc-needs: $lib needs more than glibc:" $others "(configure --enable-static-deps)" >&2
        exit 1
    fi
fi
v=$(objdump -T "$lib" | grep -oE '\(?GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?\)?' | tr -d '()' |
    sed 's/^GLIBC_//' | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
[ -n "$v" ] || { echo "glibc-needs: no GLIBC_ symbol version in $lib" >&2; exit 1; }
echo "$v" | cut -d. -f1,2
