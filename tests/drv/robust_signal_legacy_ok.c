/* SPDX-License-Identifier: Apache-2.0 */
/* robust_signal_legacy_ok: see robust_signal_legacy.h.  With the
 * program's SIGSEGV handler installed through each of sigset,
 * sysv_signal, bsd_signal and ssignal, neighbour reads of a guarded page
 * stay syncguard's (silent, the host's values) and the program's own
 * fault goes to its handler.
 *
 * SG-EXPECT: silent
 */
#include "robust_signal_legacy.h"

int main(void)
{
    return legacy_main(1);
}
