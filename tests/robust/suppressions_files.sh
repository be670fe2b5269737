# SPDX-License-Identifier: Apache-2.0
# suppressions=FILE that cannot be read as it should, with a racy program
# (drv/d2h_async_read_race): each refused at start-up with a message
# naming the file (exit status 1), never read in part or waited on:
#  1. a FIFO (a writer feeds it one valid line): opening it must not wait
#     for a writer, nor take what one writes: "not a regular file";
#  2. a NUL byte in a line: everything after it would be dropped unseen:
#     "FILE:1: a NUL byte".
# Exit: 0 pass, 1 fail (automake).
set -u
prog=${SG_DRV_DIR:?}/d2h_async_read_race
lib=${SYNCGUARD_LIB:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-supp-files.XXXXXX") || exit 1
writer=
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { # FILE: runs the program with suppressions=FILE; output in $tmp/out
    SYNCGUARD_OPTIONS="suppressions=$1" LD_PRELOAD="$lib" "$prog" >"$tmp/out" 2>&1
    status=$?
}

# 1
mkfifo "$tmp/fifo" || { echo "cannot make a FIFO"; exit 1; }
printf 'early-host-read:*\n' >"$tmp/fifo" &
writer=$!
run "$tmp/fifo"
[ "$status" = 1 ] || fail "1: exit status $status, expected 1 (refused)"
grep -q "ERROR: syncguard: suppressions=$tmp/fifo: not a regular file" "$tmp/out" ||
    fail "1: no 'not a regular file' message naming the FIFO"

# 2
printf 'early-host-read:nothing\000early-host-read:*\n' >"$tmp/nul.supp"
run "$tmp/nul.supp"
[ "$status" = 1 ] || fail "2: exit status $status, expected 1 (refused)"
grep -q "ERROR: syncguard: $tmp/nul.supp:1: a NUL byte" "$tmp/out" ||
    fail "2: no message naming $tmp/nul.supp:1 and the NUL byte"

[ "$fails" = 0 ] || { echo "--- last output:"; head -c 3000 "$tmp/out"; exit 1; }
echo "PASS suppressions_files"
