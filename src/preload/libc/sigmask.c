/* SPDX-License-Identifier: Apache-2.0 */
/* Signal masks and jumps inside the program's own SIGSEGV/SIGTRAP handler.
 * syncguard runs that handler with those two signals deliverable (its
 * guards and single steps need them) but blocked in the program's view
 * (fault/signals.c): these shims show the view (a mask query says blocked,
 * as without syncguard), keep a change of the two inside the handler in
 * the view, and tell it when a siglongjmp leaves the handler. Outside the
 * program's handlers they pass straight through. */
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
    if (!set || !sg_fault_in_program_handler())
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
        int r = real_##name(how, into_view(how, set, &rest), old);             \
        if (r == 0 && old)                                                     \
            sg_fault_virtually_blocked(old); /* the view of the two */         \
        return r;                                                              \
    }

MASK(pthread_sigmask)
MASK(sigprocmask)

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
