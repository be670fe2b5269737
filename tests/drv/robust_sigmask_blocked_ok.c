/* SPDX-License-Identifier: Apache-2.0 */
/* robust_sigmask_blocked_ok: see robust_sigmask.h.  Neighbour reads of a
 * guarded page with SIGTRAP, then SIGSEGV too, blocked: no report, the
 * host's values, the program's view of its mask intact.  Twin:
 * robust_sigmask_blocked_race.
 *
 * SG-EXPECT: silent
 */
#include "robust_sigmask.h"

int main(void)
{
    return sigmask_main(0);
}
