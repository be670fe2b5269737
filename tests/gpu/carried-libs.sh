# SPDX-License-Identifier: Apache-2.0
# Sourced on the GPU machine before running syncguard there: that machine
# lacks some shared libraries libsyncguard.so needs (libunwind, maybe libdw
# and libelf). They are carried in .carry/lib (copied from the build machine);
# only the ones the machine lacks are put on the preloaded runs' library path.
mkdir -p /tmp/sglib
for l in .carry/lib/*.so*; do
    [ -e "$l" ] || continue
    ldconfig -p | grep -q " $(basename "$l") " || cp "$l" /tmp/sglib/
done
export SYNCGUARD_LIBDIR=/tmp/sglib
export SYNCGUARD_LIB=$PWD/src/.libs/libsyncguard.so
echo "# carried libraries in use: $(ls /tmp/sglib | tr '\n' ' ')"
