/* SPDX-License-Identifier: Apache-2.0 */
/* Keeping syncguard's SIGSEGV and SIGTRAP handlers first. Programs install
 * their own later (Python's faulthandler, which pytest enables, does): such
 * a sigaction() or signal() is recorded as the program's action and
 * reported back to it as installed, while syncguard's handler stays in
 * place and passes every fault that is not its own to that action. The
 * sigaction() and signal() shims are preload/libc/signal.c. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/lock.h"
#include "fault/fault.h"

static struct sigaction program_action[2];
static atomic_int installed[2];

static int slot_of(int sig)
{
    return sig == SIGSEGV ? 0 : sig == SIGTRAP ? 1 : -1;
}

int sg_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return SG_NEXT(sigaction)(sig, act, old);
}

int sg_fault_owns(int sig)
{
    int s = slot_of(sig);
    return s >= 0 && atomic_load(&installed[s]);
}

void sg_fault_get_program_action(int sig, struct sigaction *out)
{
    *out = program_action[slot_of(sig)];
}

void sg_fault_set_program_action(int sig, const struct sigaction *act)
{
    int s = slot_of(sig);
    program_action[s] = *act;
    atomic_store(&installed[s], 1);
}

/* Delivers a signal that is not syncguard's as if syncguard were absent. */
void sg_forward_signal(int sig, siginfo_t *si, void *uc)
{
    int slot = slot_of(sig);
    if (slot < 0)
        return;
    struct sigaction pa = program_action[slot];
    if (pa.sa_handler == SIG_IGN && si->si_code <= 0)
        return; /* sent by kill(): ignored, as the program asked */
    if (pa.sa_handler == SIG_DFL || pa.sa_handler == SIG_IGN) {
        /* Restore the default and let it happen: a fault re-executes and
         * the kernel delivers it again; a sent signal is raised again. */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sg_real_sigaction(sig, &dfl, NULL);
        atomic_store(&installed[slot], 0);
        /* A trap does not re-execute: raise it again too. */
        if (si->si_code <= 0 || sig == SIGTRAP)
            raise(sig);
        return;
    }
    sigset_t old;
    sigset_t mask = pa.sa_mask;
    if (!(pa.sa_flags & SA_NODEFER))
        sigaddset(&mask, sig);
    pthread_sigmask(SIG_BLOCK, &mask, &old);
    if (pa.sa_flags & SA_RESETHAND)
        program_action[slot].sa_handler = SIG_DFL, program_action[slot].sa_flags &= ~SA_SIGINFO;
    if (pa.sa_flags & SA_SIGINFO)
        pa.sa_sigaction(sig, si, uc);
    else
        pa.sa_handler(sig);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void sg_fault_swap_program_action(int sig, const struct sigaction *act, struct sigaction *old)
{
    struct sigaction prev = program_action[slot_of(sig)];
    if (act)
        program_action[slot_of(sig)] = *act;
    if (old)
        *old = prev;
}
