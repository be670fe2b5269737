/* SPDX-License-Identifier: Apache-2.0 */
/* The sigaction() and signal() shims, and the older interfaces glibc keeps
 * (bsd_signal, ssignal, sysv_signal, sigset), which it implements with its
 * internal sigaction, past the shim: while syncguard's SIGSEGV and SIGTRAP
 * handlers are installed, the program's own actions for those signals are
 * recorded (fault/signals.c) instead of replacing syncguard's. */
#include "config.h"

#include <pthread.h>
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

/* Records handler as the program's action for a signal syncguard owns,
 * with flags, and the signal in its sa_mask if mask_self (as glibc's
 * function of that name sets it); returns the previous handler. */
static sighandler_t record_handler(int sig, sighandler_t handler, int flags, int mask_self)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (mask_self)
        sigaddset(&sa.sa_mask, sig);
    sg_fault_swap_program_action(sig, &sa, &old);
    return old.sa_handler;
}

/* glibc's signal() is bsd_signal(): restarting system calls, the signal
 * blocked in its handler. */
SG_SHIM(sighandler_t, signal, (int sig, sighandler_t handler))
{
    if (!sg_fault_owns(sig))
        return SG_NEXT(signal)(sig, handler);
    return record_handler(sig, handler, SA_RESTART, 1);
}

SG_SHIM(sighandler_t, bsd_signal, (int sig, sighandler_t handler))
{
    if (!sg_fault_owns(sig))
        return SG_NEXT(bsd_signal)(sig, handler);
    return record_handler(sig, handler, SA_RESTART, 1);
}

SG_SHIM(sighandler_t, ssignal, (int sig, sighandler_t handler))
{
    if (!sg_fault_owns(sig))
        return SG_NEXT(ssignal)(sig, handler);
    return record_handler(sig, handler, SA_RESTART, 1);
}

/* System V semantics: the handler is reset to SIG_DFL when it runs, and
 * the signal is not blocked in it. */
SG_SHIM(sighandler_t, sysv_signal, (int sig, sighandler_t handler))
{
    if (!sg_fault_owns(sig))
        return SG_NEXT(sysv_signal)(sig, handler);
    return record_handler(sig, handler, SA_RESETHAND | SA_NODEFER, 0);
}

/* sigset: SIG_HOLD adds the signal to the mask; any other disposition is
 * installed (no flags, nothing blocked in the handler) and takes the
 * signal out of the mask. Returns SIG_HOLD if the signal was blocked,
 * else the previous disposition. The mask goes through the program's own
 * view of it (pthread_sigmask, preload/libc/sigmask.c). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* glibc marks sigset so */
SG_SHIM(sighandler_t, sigset, (int sig, sighandler_t disp))
{
    if (!sg_fault_owns(sig))
        return SG_NEXT(sigset)(sig, disp);
    sigset_t one, was;
    sigemptyset(&one);
    sigaddset(&one, sig);
    struct sigaction cur;
    sg_fault_get_program_action(sig, &cur);
    if (disp == SIG_HOLD) {
        pthread_sigmask(SIG_BLOCK, &one, &was);
        return sigismember(&was, sig) ? SIG_HOLD : cur.sa_handler;
    }
    sighandler_t prev = record_handler(sig, disp, 0, 0);
    pthread_sigmask(SIG_UNBLOCK, &one, &was);
    return sigismember(&was, sig) ? SIG_HOLD : prev;
}
#pragma GCC diagnostic pop
