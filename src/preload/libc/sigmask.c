/* SPDX-License-Identifier: Apache-2.0 */
/* Signal masks and jumps. SIGSEGV and SIGTRAP must stay deliverable while
 * syncguard's handlers are installed (its guards and single steps need
 * them: a blocked fault signal kills the process), yet programs block
 * them: worker threads that block all but the fault signals, or
 * everything, and the program's own SIGSEGV/SIGTRAP handler, which the
 * kernel would run with its signal blocked. So the two stay out of the
 * kernel's mask and go to the program's view of it (fault/signals.c):
 * these shims keep a change of the two in the view, show the view (a
 * mask query says blocked, as without syncguard), raise a signal sent
 * while the program had it blocked once it unblocks it, and tell the
 * view when a siglongjmp leaves a handler. syncguard's own calls pass
 * straight through. */
#include "config.h"

#include <setjmp.h>
#include <signal.h>

#include "base/dl.h"
#include "fault/fault.h"
#include "preload/root.h"
#include "preload/shim.h"

/* The request without SIGSEGV and SIGTRAP, which go to the view. */
static const sigset_t *into_view(int how, const sigset_t *set, sigset_t *rest)
{
    if (!set || sg_in_syncguard || !sg_fault_owns(SIGSEGV) || !sg_fault_owns(SIGTRAP))
        return set;
    sg_fault_set_virtual(how, set);
    *rest = *set;
    sigdelset(rest, SIGSEGV);
    sigdelset(rest, SIGTRAP);
    return rest;
}

typedef int mask_fn(int, const sigset_t *, sigset_t *);
typedef void jump_fn(struct __jmp_buf_tag *, int);
void __longjmp_chk(struct __jmp_buf_tag env[1], int val);

/* Looked up at start-up: a jump out of a signal handler is no place for
 * the loader's first look-up. */
static mask_fn *real_pthread_sigmask, *real_sigprocmask;
static jump_fn *real_siglongjmp, *real_longjmp, *real__longjmp, *real___longjmp_chk;

void sg_sigmask_install(void)
{
    real_pthread_sigmask = SG_NEXT(pthread_sigmask);
    real_sigprocmask = SG_NEXT(sigprocmask);
    real_siglongjmp = SG_NEXT(siglongjmp);
    real_longjmp = SG_NEXT(longjmp);
    real__longjmp = SG_NEXT(_longjmp);
    real___longjmp_chk = SG_NEXT(__longjmp_chk);
}

#define MASK(name)                                                             \
    SG_SHIM(int, name, (int how, const sigset_t *set, sigset_t *old))         \
    {                                                                          \
        if (!real_##name)                                                      \
            real_##name = SG_NEXT(name);                                       \
        sigset_t rest;                                                         \
        int view = !sg_in_syncguard;                                           \
        sigset_t before;                                                       \
        if (view && old)                                                       \
            sigemptyset(&before), sg_fault_virtually_blocked(&before);         \
        int r = real_##name(how, into_view(how, set, &rest), old);             \
        if (r == 0 && old && view) /* the view of the two, before the call */  \
            for (int s_ = 0; s_ < 2; s_++)                                     \
                if (sigismember(&before, s_ ? SIGTRAP : SIGSEGV) == 1)          \
                    sigaddset(old, s_ ? SIGTRAP : SIGSEGV);                    \
        if (r == 0 && set && view)                                             \
            sg_fault_raise_unblocked();                                        \
        return r;                                                              \
    }

MASK(pthread_sigmask)
MASK(sigprocmask)

/* The mask while it waits: a handler that runs then may touch a guarded
 * page too. */
SG_SHIM(int, sigsuspend, (const sigset_t *mask))
{
    sigset_t kernel = *mask;
    if (!sg_in_syncguard && sg_fault_owns(SIGSEGV) && sg_fault_owns(SIGTRAP)) {
        sigdelset(&kernel, SIGSEGV);
        sigdelset(&kernel, SIGTRAP);
    }
    return SG_NEXT(sigsuspend)(&kernel);
}

/* Jumps: glibc's longjmp and siglongjmp are one function (restoring the
 * mask if sigsetjmp saved it); _FORTIFY_SOURCE programs call
 * __longjmp_chk. */
#define JUMP(name)                                                             \
    SG_SHIM(void, name, (struct __jmp_buf_tag env[1], int val))               \
    {                                                                          \
        if (!real_##name)                                                      \
            real_##name = SG_NEXT(name);                                       \
        sg_fault_longjmp(env);                                                 \
        real_##name(env, val);                                                 \
        __builtin_unreachable();                                               \
    }

JUMP(siglongjmp)
JUMP(longjmp)
JUMP(_longjmp)
JUMP(__longjmp_chk)
