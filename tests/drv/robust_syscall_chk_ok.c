/* SPDX-License-Identifier: Apache-2.0 */
/* robust_syscall_chk_ok: robust_syscall_chk_race's fortified calls
 * (__read_chk, __pread_chk, __recv_chk, __recvfrom_chk, __fread_chk),
 * twice each: into a buffer whose copy the host has observed complete,
 * and into bytes that share a page with a copy in flight but are not the
 * copy's.  No report, full counts, no EFAULT, and the copies' bytes are
 * what the device sent.
 *
 * SG-EXPECT: silent
 */
#include "robust_syscall_chk.h"

int main(void)
{
    return chk_main(1);
}
