/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_legacy_race: see robust_signal_legacy.h.  Four early
 * reads, each with the program's SIGSEGV handler installed through one
 * of sigset, sysv_signal, bsd_signal and ssignal: all four reported,
 * correct data, the handler never called (one site: one report, three
 * repeats).  Twin: robust_signal_legacy_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: syncguard: 1 race reported (1 early-host-read, .*), 3 repeats not shown
 */
#include "robust_signal_legacy.h"

int main(void)
{
    return legacy_main(0);
}
