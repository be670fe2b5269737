#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# t-static-deps.sh: a --enable-static-deps libsyncguard.so needs glibc's
# libraries alone, exports none of the symbols of the libraries linked into
# it (libunwind, libdw, libelf, libbz2, liblzma, libz), says which glibc it
# needs (packaging/glibc-needs.sh: 2.17 at most), and, preloaded with an empty
# LD_LIBRARY_PATH, reports the racy example on the emulator.
. "$(dirname "$0")/lib.sh"
[ "${STATIC_DEPS:-no}" = yes ] || skip "not a --enable-static-deps build"
lib=${LIB:?}

echo "NEEDED: $(needed "$lib" | tr '\n' ' ')"
others=$(needed "$lib" | grep -vxE 'libc\.so\.6|libdl\.so\.2|libpthread\.so\.0|libm\.so\.6|librt\.so\.1|ld-linux-x86-64\.so\.2')
[ -z "$others" ] || fail "NEEDED entries beyond glibc's: $others"
for l in libunwind libdw libelf libbz2 liblzma libz; do
    needed "$lib" | grep -q "^$l\." && fail "still needs $l"
done

# Defined dynamic symbols: syncguard's own interface only (the driver's
# cu* entry points, the shims of libc functions, syncguard_*).
objdump -T "$lib" | awk '$2 ~ /g/ && $4 != "*UND*" {print $NF}' >"$tmp/exported"
leaked=$(grep -E '^(_?U[A-Z]?x86_64_|_U_|unw_|_Unwind|dwfl_|dwarf_|dwelf_|elf_|elf32_|elf64_|gelf_|ebl_|BZ2_|lzma_|inflate|deflate|crc32|adler32|zlib|gz)' "$tmp/exported")
[ -z "$leaked" ] || fail "symbols of the static libraries exported: $(echo $leaked | head -c 400)"
# Its own are: the shims of the driver and of libc (hidden with the
# archives' symbols, the library would intercept nothing).
for s in syncguard_loaded dlsym cuGetProcAddress_v2 cuMemcpyDtoHAsync_v2 cuStreamSynchronize mprotect \
    sigaction read syscall; do
    grep -qx "$s" "$tmp/exported" || fail "$s is not exported"
done

glibc=$(sh "$SRCDIR/packaging/glibc-needs.sh" --self-contained "$lib") || fail "glibc-needs.sh refused it"
echo "needs glibc $glibc or newer; the symbols of that version:"
objdump -T "$lib" | grep "GLIBC_$glibc[ )]" | awk '{print "  " $NF}'
# src/base/glibc-compat.c keeps it at 2.17 (manylinux2014): a newer
# version means syncguard or a library linked in calls a function whose
# symbol glibc re-versioned; give it a line there.
case $glibc in
2.[0-9] | 2.1[0-7]) ;;
*) fail "needs glibc $glibc, more than 2.17: add the functions above to src/base/glibc-compat.c" ;;
esac
# Where they lived before glibc 2.34: NEEDED, so that an older glibc loads them.
needed "$lib" | grep -qx libpthread.so.0 || fail "libpthread.so.0 is not NEEDED"
needed "$lib" | grep -qx libdl.so.2 || fail "libdl.so.2 is not NEEDED"
host=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')
[ "$(printf '%s\n%s\n' "$glibc" "$host" | sort -t. -k1,1n -k2,2n | tail -n 1)" = "$host" ] ||
    fail "needs glibc $glibc, newer than this machine's $host"

build_racy
run_racy "LD_PRELOAD=libsyncguard.so (static deps), no LD_LIBRARY_PATH" \
    env -u LD_LIBRARY_PATH LD_PRELOAD="$lib" SYNCGUARD_OPTIONS=color=never "$tmp/racy"
finish
