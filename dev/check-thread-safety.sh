#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks the lock contracts of libsyncguard (src/base/thread_safety.h) with
# clang's thread-safety analysis: every C file of src/ compiled with
# -Wthread-safety -Wthread-safety-beta -Werror, for the analysis only (no
# object is written). Any warning fails (exit 1). About ten seconds.
#   sh dev/check-thread-safety.sh [BUILDDIR]
# BUILDDIR: a configured build tree (default: the source tree, when it is
# configured in place); with none, a scratch one is configured in a
# temporary folder and removed afterwards. CLANG=clang-15 picks the clang.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
[ -z "$build" ] && [ -f "$top/src/Makefile" ] && build=$top
scratch=
if [ -z "$build" ]; then
    command -v "${CLANG:-clang}" >/dev/null 2>&1 ||
        { echo "check-thread-safety: no ${CLANG:-clang} on PATH (Debian: apt-get install clang)" >&2; exit 1; }
    if [ ! -x "$top/configure" ]; then
        (cd "$top" && autoreconf -fi) || exit 1
    fi
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/sg-thread-safety.XXXXXX") || exit 1
    trap 'rm -rf "$scratch"' EXIT
    (cd "$scratch" && "$top/configure" --quiet) || exit 1
    build=$scratch
fi
# Only src/, and nothing built: the analysis needs config.h alone.
set -- -C "$build/src" check-thread-safety
[ -n "${CLANG:-}" ] && set -- "$@" CLANG="$CLANG"
make "$@"
