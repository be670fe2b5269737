# SPDX-License-Identifier: Apache-2.0
# Reads "FROM TO" edges and reports the nodes that lie on a circle: nodes
# with no edge out, or no edge in, cannot be on one and are peeled off
# until none is left to peel; what remains lies on circles. Used by
# check-layers.sh.
{
    if ($1 == $2 || (($1, $2) in edge)) next
    edge[$1, $2] = 1
    out[$1]++; in_[$2]++
    to_of[$1] = to_of[$1] " " $2
    from_of[$2] = from_of[$2] " " $1
    node[$1] = 1; node[$2] = 1
}
END {
    do {
        peeled = 0
        for (n in node) {
            if (n in gone || (out[n] > 0 && in_[n] > 0)) continue
            gone[n] = 1; peeled = 1
            k = split(from_of[n], fs, " ")
            for (i = 1; i <= k; i++) out[fs[i]]--
            k = split(to_of[n], ts, " ")
            for (i = 1; i <= k; i++) in_[ts[i]]--
        }
    } while (peeled)
    bad = 0
    for (n in node) if (!(n in gone)) {
        line = ""
        for (m in node) if (!(m in gone) && ((n, m) in edge)) line = line " " m
        printf "check-layers: %s circle through %s ->%s\n", what, n, line > "/dev/stderr"
        bad = 1
    }
    exit bad
}
