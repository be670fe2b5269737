# SPDX-License-Identifier: Apache-2.0
# log_path's checks, with a racy program (drv/d2h_async_read_race):
#  1. a prefix too long for a path (5000 characters): one clear line on
#     stderr naming the reason (ENAMETOOLONG, not a stale errno), the
#     report on stderr, and nothing but text (the line was once written
#     with snprintf's would-be length: stack bytes after it);
#  2. an empty log_path is refused like a bad option (exit status 1, a
#     message naming log_path) and no ".PID" file is made;
#  3. %r takes the rank from the environment: RANK=3 makes the file
#     DIR/log.3 (log.3.PID: only %p drops the .PID); RANK=../../x must not make a path outside DIR: it is
#     refused with a message naming RANK, and the report goes to stderr.
# Exit: 0 pass, 1 fail (automake).
set -u
prog=${SG_DRV_DIR:?}/d2h_async_read_race
lib=${SYNCGUARD_LIB:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sg-log-path.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
run() { # OPTIONS [VAR=VALUE...]: runs the program in $tmp/cwd; stdout+stderr in $tmp/out
    opts=$1; shift
    mkdir -p "$tmp/cwd"
    (cd "$tmp/cwd" && env "$@" SYNCGUARD_OPTIONS="$opts" LD_PRELOAD="$lib" "$prog") \
        >"$tmp/out" 2>&1
    status=$?
}

# 1
long=$(printf '%05000d' 0 | tr 0 a)
run "log_path=$tmp/$long"
grep -q 'cannot create log file from log_path=.*File name too long; logging to stderr$' \
    "$tmp/out" || fail "1: no complete 'cannot create log file ... File name too long' line"
[ "$(grep -c 'cannot create log file' "$tmp/out")" = 1 ] || fail "1: not exactly one such line"
if LC_ALL=C grep -q '[^[:print:][:space:]]' "$tmp/out" || [ "$(tr -d '\000' <"$tmp/out" | wc -c)" != "$(wc -c <"$tmp/out")" ]; then
    fail "1: bytes that are not text in the output (stack memory?)"
fi
grep -q '^SUMMARY: syncguard: early-host-read' "$tmp/out" || fail "1: the report did not reach stderr"
[ "$status" = 66 ] || fail "1: exit status $status, expected 66"

# 2
run "log_path="
[ "$status" = 1 ] || fail "2: exit status $status, expected 1 (refused)"
grep -q 'ERROR: syncguard: SYNCGUARD_OPTIONS: .*log_path' "$tmp/out" ||
    fail "2: no error naming log_path"
ls -A "$tmp/cwd" | grep -q . && fail "2: files made: $(ls -A "$tmp/cwd")"

# 3
mkdir -p "$tmp/a/b"
run "log_path=$tmp/a/b/log.%r" RANK=3
made=$(ls "$tmp/a/b")
case $made in log.3|log.3.[0-9]*) ;; *) fail "3: RANK=3 made '$made', not log.3 or log.3.PID" ;; esac
grep -q '^SUMMARY: syncguard: early-host-read' "$tmp/a/b/$made" 2>/dev/null ||
    fail "3: the report is not in $made"
rm -f "$tmp/a/b/$made"
run "log_path=$tmp/a/b/%r" RANK=../../x
[ "$(ls -A "$tmp" | tr '\n' ' ')" = "a cwd out " ] ||
    fail "3: RANK=../../x made $(ls -A "$tmp" | tr '\n' ' ') in $tmp, outside the log folder"
[ -n "$(ls -A "$tmp/a/b")" ] && fail "3: RANK=../../x made $(ls -A "$tmp/a/b") in the log folder"
grep -q "RANK" "$tmp/out" || fail "3: no message naming RANK"
grep -q '^SUMMARY: syncguard: early-host-read' "$tmp/out" || fail "3: the report did not reach stderr"

[ "$fails" = 0 ] || { echo "--- last output:"; head -c 3000 "$tmp/out"; exit 1; }
echo "PASS log_path"
