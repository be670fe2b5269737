# SPDX-License-Identifier: Apache-2.0
# The floors of libsyncguard call only down: tools/check-layers.sh over the
# sources and the convenience libraries just built.
set -u
top_build=$(cd .. && pwd)
exec sh "${srcdir:-.}/../tools/check-layers.sh" "$top_build"
