# SPDX-License-Identifier: Apache-2.0
# What libsyncguard.so exports is exactly what its floors declare exported
# (SG_EXPORT: the shims of the driver and of libc, syncguard_*): every such
# definition of the convenience archives is in the library's dynamic symbol
# table, and nothing else is (no symbol of libunwind, libdw or what a
# --enable-static-deps build links in). In a --enable-static-deps build its
# NEEDED entries are also glibc's alone. A link that hides the floors'
# symbols (--exclude-libs,ALL) exports no shim, and the preloaded library
# then intercepts nothing: every other test would say only that nothing
# was reported.
set -u
top_build=$(cd .. && pwd)
lib=${SYNCGUARD_LIB:-$top_build/src/.libs/libsyncguard.so}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The floors' global definitions of default visibility (readelf -s:
# Bind GLOBAL or WEAK, Vis DEFAULT, a section index).
for a in "$top_build"/src/*/.libs/libsg_*.a; do
    [ -f "$a" ] || { echo "no convenience archive in $top_build/src: build first"; exit 99; }
    readelf -sW "$a"
done | awk '($5 == "GLOBAL" || $5 == "WEAK") && $6 == "DEFAULT" && $7 != "UND" && $4 != "FILE" { print $8 }' |
    sort -u >"$tmp/declared"
# The library's own definitions (not the glibc versions it refers to), but
# the bounds the linker gives syncguard's own sections (__start_sg_next).
readelf --dyn-syms -W "$lib" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") { sub(/@.*/, "", $8); print $8 }' |
    grep -vE '^__(start|stop)_sg_' | sort -u >"$tmp/exported"
echo "$(wc -l <"$tmp/declared") symbols declared exported by the floors, $(wc -l <"$tmp/exported") exported by $lib"

# A few that every build must export, so that an empty list cannot pass.
for s in dlsym cuGetProcAddress_v2 cuMemcpyDtoHAsync_v2 cuStreamSynchronize \
    mprotect sigaction signal read syscall syncguard_loaded syncguard_race_count; do
    grep -qx "$s" "$tmp/declared" || fail "$s is not declared exported by any floor"
    grep -qx "$s" "$tmp/exported" || fail "$s is not exported by libsyncguard.so"
done
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
[ -z "$missing" ] || fail "declared but not exported ($(echo "$missing" | wc -l)): $(echo $missing | cut -c1-600)"
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
[ -z "$extra" ] || fail "exported but not syncguard's ($(echo "$extra" | wc -l)): $(echo $extra | cut -c1-600)"

if [ "${SG_STATIC_DEPS:-no}" = yes ]; then
    needed=$(readelf -dW "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    echo "NEEDED (--enable-static-deps):" $needed
    others=$(echo "$needed" | grep -vxE 'libc\.so\.6|libdl\.so\.2|libpthread\.so\.0|libm\.so\.6|librt\.so\.1|ld-linux-x86-64\.so\.2')
    [ -z "$others" ] || fail "a --enable-static-deps library needs more than glibc: $others"
fi
[ "$failures" -eq 0 ] || exit 1
echo "all checks passed"
