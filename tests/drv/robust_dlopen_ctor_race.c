/* SPDX-License-Identifier: Apache-2.0 */
/* robust_dlopen_ctor_race: see robust_dlopen_ctor.h.  The constructor's
 * read is an early read of a copy in flight, made while the thread holds
 * the loader lock: it must be reported in full (both stacks, the SUMMARY
 * line naming the constructor's function), the exit status must say so,
 * and the read must see the copied data.  A reporter that needs the
 * loader lock for this report (to list the modules) would wait for the
 * faulting thread, which waits for the report.  Twin: robust_dlopen_ctor_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in ctor_read
 * SG-NOGREP: no stack: the reporter thread is unavailable
 */
#include "robust_dlopen_ctor.h"

int main(void)
{
    return ctor_main(0);
}
