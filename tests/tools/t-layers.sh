# SPDX-License-Identifier: Apache-2.0
# The floors of libsyncguard call only down: dev/check-layers.sh over the
# sources and the convenience libraries just built.
set -u
top_build=$(cd .. && pwd)
exec sh "${srcdir:-.}/../dev/check-layers.sh" "$top_build"
