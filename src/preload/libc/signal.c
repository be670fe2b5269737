/* SPDX-License-Identifier: Apache-2.0 */
/* The sigaction() and signal() shims: while syncguard's SIGSEGV and SIGTRAP
 * handlers are installed, the program's own actions for those signals are
 * recorded (fault/signals.c) instead of replacing syncguard's. */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "base/dl.h"
#include "fault/fault.h"
#include "preload/shim.h"

SG_SHIM(int, sigaction, (int sig, const struct sigaction *act, struct sigaction *old))
{
    if (!sg_fault_owns(sig))
        return sg_real_sigaction(sig, act, old);
    sg_fault_swap_program_action(sig, act, old);
    return 0;
}

SG_SHIM(sighandler_t, signal, (int sig, sighandler_t handler))
{
    if (!sg_fault_owns(sig))
        return SG_NEXT(signal)(sig, handler);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, &old);
    return old.sa_handler;
}
