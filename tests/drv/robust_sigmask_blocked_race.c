/* SPDX-License-Identifier: Apache-2.0 */
/* robust_sigmask_blocked_race: see robust_sigmask.h.  Early reads of a
 * copy in flight with SIGTRAP, then SIGSEGV too, blocked: each reported,
 * correct data (one site: one report, three repeats), the program's view
 * of its mask intact.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: syncguard: 1 race reported (1 early-host-read, .*), 3 repeats not shown
 */
#include "robust_sigmask.h"

int main(void)
{
    return sigmask_main(1);
}
