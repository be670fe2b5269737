/* SPDX-License-Identifier: Apache-2.0 */
/* Keeping syncguard's SIGSEGV and SIGTRAP handlers first. Programs install
 * their own later (Python's faulthandler, which pytest enables, does): such
 * a sigaction() or signal() is recorded as the program's action and
 * reported back to it as installed, while syncguard's handler stays in
 * place and passes every fault that is not its own to that action. The
 * sigaction() and signal() shims are preload/libc/signal.c. */
#include "config.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/lock.h"
#include "fault/arch.h"
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

/* The program's view of SIGSEGV and SIGTRAP inside its own handler. The
 * kernel would run the handler with its sa_mask, plus the signal itself
 * unless SA_NODEFER, blocked. But syncguard's guards and single steps must
 * keep working in there (a handler that reads a guarded page, or takes a
 * nested fault with SA_NODEFER), and a blocked fault signal cannot be
 * caught: the kernel kills the process. So those two stay unblocked for
 * real, and blocked only in the program's view (virt), which syncguard
 * honours for every signal that is not its own: a fault the program has
 * blocked kills, as the kernel would; a sent one waits until the handler
 * returns. The view follows the handler's frames: a siglongjmp out of them
 * (sg_fault_longjmp) drops it, as the kernel's mask would be dropped by
 * the mask it restores. */
#define LEVELS 8
static SG_TLS int virt, pending; /* bit slot_of(sig) */
static SG_TLS struct level {
    uintptr_t frame; /* the forwarding frame: the handler runs below it */
    int virt_before;
} levels[LEVELS];
static SG_TLS int nlevels;
static const int owned[2] = { SIGSEGV, SIGTRAP };

int sg_fault_virtually_blocked(sigset_t *set)
{
    if (SG_LIKELY(!virt))
        return 0;
    for (int s = 0; s < 2; s++)
        if (virt & (1 << s))
            sigaddset(set, owned[s]);
    return 1;
}

int sg_fault_in_program_handler(void)
{
    return nlevels > 0;
}

void sg_fault_set_virtual(int how, const sigset_t *set)
{
    for (int s = 0; s < 2; s++) {
        int in = sigismember(set, owned[s]) == 1;
        if (how == SIG_BLOCK && in)
            virt |= 1 << s;
        else if ((how == SIG_UNBLOCK && in) || (how == SIG_SETMASK && !in))
            virt &= ~(1 << s);
        else if (how == SIG_SETMASK && in)
            virt |= 1 << s;
    }
}

void sg_fault_raise_unblocked(void)
{
    if (nlevels > 0)
        return; /* the handler's return raises them (call_program_handler) */
    int due = pending & ~virt;
    pending &= ~due;
    for (int s = 0; s < 2; s++)
        if (due & (1 << s))
            raise(owned[s]);
}

/* A signal the program has blocked, as the kernel would treat it: 1 if it
 * was dealt with. */
static int blocked_by_program(int sig, int slot, const siginfo_t *si)
{
    if (!(virt & (1 << slot)))
        return 0;
    if (si->si_code <= 0) {
        pending |= 1 << slot; /* sent: delivered when unblocked */
        return 1;
    }
    /* A fault or trap with its signal blocked: the kernel resets the action
     * and kills the process. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sg_real_sigaction(sig, &dfl, NULL);
    atomic_store(&installed[slot], 0);
    if (sig == SIGTRAP)
        raise(sig); /* a trap does not re-execute */
    return 1;
}

static void call_program_handler(const struct sigaction *pa, int sig, siginfo_t *si, void *uc)
{
    sigset_t old, mask = pa->sa_mask;
    if (!(pa->sa_flags & SA_NODEFER))
        sigaddset(&mask, sig);
    int view = virt;
    for (int s = 0; s < 2; s++)
        if (sigismember(&mask, owned[s]) == 1)
            view |= 1 << s, sigdelset(&mask, owned[s]);
    pthread_sigmask(SIG_BLOCK, &mask, &old);
    int level = nlevels < LEVELS ? nlevels++ : -1;
    if (level >= 0)
        levels[level] = (struct level){ (uintptr_t)__builtin_frame_address(0), virt };
    int before = virt;
    virt = view;
    if (pa->sa_flags & SA_SIGINFO)
        pa->sa_sigaction(sig, si, uc);
    else
        pa->sa_handler(sig);
    virt = before;
    if (level >= 0)
        nlevels = level;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    int due = pending & ~virt;
    pending &= ~due;
    for (int s = 0; s < 2; s++)
        if (due & (1 << s))
            raise(owned[s]);
}

void sg_fault_longjmp(const struct __jmp_buf_tag *env)
{
    uintptr_t sp = sg_arch_jmpbuf_sp(env), here = (uintptr_t)&sp;
    if (SG_UNLIKELY(sg_in_driver))
        sg_driver_longjmp(here, sp);
    if (nlevels == 0)
        return;
    /* A target inside a handler lies between here (called from it, on its
     * stack) and the frame that called it; anything else leaves it,
     * wherever its stack is. */
    int n = nlevels;
    while (n > 0 && !(here <= sp && sp < levels[n - 1].frame))
        n--;
    if (n == nlevels)
        return;
    virt = levels[n].virt_before;
    nlevels = n;
    if (env->__mask_was_saved)
        for (int s = 0; s < 2; s++)
            virt = (virt & ~(1 << s)) | (sigismember(&env->__saved_mask, owned[s]) == 1) << s;
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
    if (blocked_by_program(sig, slot, si))
        return;
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
    if (pa.sa_flags & SA_RESETHAND)
        program_action[slot].sa_handler = SIG_DFL, program_action[slot].sa_flags &= ~SA_SIGINFO;
    call_program_handler(&pa, sig, si, uc);
}

void sg_fault_swap_program_action(int sig, const struct sigaction *act, struct sigaction *old)
{
    struct sigaction prev = program_action[slot_of(sig)];
    if (act)
        program_action[slot_of(sig)] = *act;
    if (old)
        *old = prev;
}
