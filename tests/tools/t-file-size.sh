# SPDX-License-Identifier: Apache-2.0
# One idea per file: no source file of the library longer than 450 lines
# (issue 28). Names each one that is, with its length.
set -u
src=${srcdir:-.}/../src
[ -d "$src" ] || { echo "t-file-size: no $src"; exit 1; }
limit=450
long=$(find "$src" -name '*.[ch]' -exec wc -l {} + | awk -v limit=$limit '$2 != "total" && $1 > limit')
if [ -n "$long" ]; then
    echo "t-file-size: over $limit lines:"
    echo "$long"
    exit 1
fi
echo "t-file-size: every file of src/ within $limit lines"
