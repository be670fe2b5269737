/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_chk_race: the fortified entry points that glibc's headers
 * call instead of read, pread, recv, recvfrom and fread when the compiler
 * knows the buffer's size (-O2 -D_FORTIFY_SOURCE=2, distributions' default
 * flags, and a buffer that is an array member of a struct): __read_chk,
 * __pread_chk (__pread64_chk with _FILE_OFFSET_BITS=64), __recv_chk,
 * __recvfrom_chk and __fread_chk.  Each fills the pinned (registered
 * global array) source of a
 * host-to-device copy still in flight: a host write of the buffer, which
 * syncguard must report (early-host-write), wait for, then let the call
 * fill the buffer.  The device receives the ORIGINAL bytes, the buffer
 * the file's or socket's, and each call returns the full count without an
 * error (without the shims: EFAULT, and no report).  Twin:
 * robust_syscall_chk_ok (the same calls after synchronizing, and into the
 * neighbour bytes of a page with a copy in flight).
 *
 * tests/Makefile.am builds both with -O2 -D_FORTIFY_SOURCE=2 (the header
 * refuses to compile otherwise).
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: syncguard: 5 races reported
 * SG-GREP: ^SUMMARY: syncguard: early-host-write robust_syscall_chk.h:[0-9]* in chk_main
 */
#include "robust_syscall_chk.h"

int main(void)
{
    return chk_main(0);
}
