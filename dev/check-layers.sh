#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks the floors of libsyncguard (src/*/, see src/Makefile.am): every
# file includes only headers of its own floor or lower ones, no include
# climbs out with "../", only src/preload exports symbols, and, once built,
# no object refers to a symbol of a higher floor and no two objects depend
# on each other, directly or around a circle.
#   sh dev/check-layers.sh [BUILDDIR]       (BUILDDIR: where src/ was built)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top}
floors="base capture driver model learn guard report devmem life work fault preload"
status=0

rank() {
    r=0
    for f in $floors; do
        [ "$f" = "$1" ] && { echo $r; return; }
        r=$((r + 1))
    done
    echo -1
}

fail() {
    echo "check-layers: $*" >&2
    status=1
}

cd "$top/src" || exit 2
files=$(find $floors -name '*.[ch]' -o -name '*.def' | sort)

# Includes: own floor or lower, named from src/ ("floor/file.h").
for file in $files; do
    own=$(rank "${file%%/*}")
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file"); do
        case $inc in
        config.h) continue ;;
        */*) ;;
        *) fail "$file includes \"$inc\": name it from src/ (floor/file)"; continue ;;
        esac
        case $inc in *..*) fail "$file includes \"$inc\": no ../ includes"; continue ;; esac
        floor=${inc%%/*}
        r=$(rank "$floor")
        if [ "$r" -lt 0 ]; then
            fail "$file includes \"$inc\": $floor is no floor"
        elif [ "$r" -gt "$own" ]; then
            fail "$file includes \"$inc\": $floor is above ${file%%/*}"
        elif [ ! -f "$inc" ]; then
            fail "$file includes \"$inc\", which does not exist"
        fi
    done
done

# Exports: the preload floor's alone.
for file in $files; do
    case $file in preload/*) continue ;; esac
    if grep -n 'SG_EXPORT\|visibility("default")' "$file" >/dev/null; then
        fail "$file exports a symbol: only src/preload may"
    fi
done

# Include circles among headers (each header includes each other header
# only one way), found by peeling off headers that include no other.
for file in $files; do
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\/[^"]*\)".*/\1/p' "$file"); do
        echo "$file $inc"
    done
done | awk -v what="include" -f "$top/dev/check-layers.awk" || status=1

# Link-level arrows, from the built convenience libraries.
objs=""
for f in $floors; do
    a=$build/src/$f/.libs/libsg_$f.a
    [ -f "$a" ] && objs="$objs $a"
done
if [ -n "$objs" ]; then
    # shellcheck disable=SC2086
    nm -A $objs 2>/dev/null | awk -v floors="$floors" '
        BEGIN { n = split(floors, fl, " "); for (i = 1; i <= n; i++) rank[fl[i]] = i }
        NF >= 2 {
            # .../src/FLOOR/.libs/libsg_FLOOR.a:member.o: [value] type name
            split($1, p, ":"); obj = p[2]; arch = p[1]
            sub(/\/\.libs\/libsg_[a-z]+\.a$/, "", arch); sub(/.*\//, "", arch)
            node = arch "/" obj
            sub(/^libsg_[a-z]+_la-/, "", node); sub(/\.o$/, "", node)
            floor[node] = arch
            name = $NF; type = $(NF - 1)
            if (name !~ /^sg_/) next
            if (type == "U") users[name] = users[name] " " node
            else if (type ~ /^[TDBRCV]$/) def[name] = node
        }
        END {
            bad = 0
            for (name in users) {
                if (!(name in def)) continue
                to = def[name]; m = split(users[name], us, " ")
                for (i = 1; i <= m; i++) {
                    from = us[i]
                    if (rank[floor[from]] < rank[floor[to]]) {
                        printf "check-layers: %s uses %s of %s, a higher floor\n", from, name, to > "/dev/stderr"
                        bad = 1
                    }
                    if (from != to) print from, to
                }
            }
            exit bad
        }' > "${TMPDIR:-/tmp}/check-layers.$$" || status=1
    sort -u "${TMPDIR:-/tmp}/check-layers.$$" | awk -v what="object" -f "$top/dev/check-layers.awk" || status=1
    rm -f "${TMPDIR:-/tmp}/check-layers.$$"
else
    echo "check-layers: no built floors under $build/src: link-level arrows not checked" >&2
fi

[ $status -eq 0 ] && echo "check-layers: floors $floors: no upward arrow, no circle"
exit $status
