/* SPDX-License-Identifier: Apache-2.0 */
/* The syscall() shim: a process made with syscall(SYS_fork) (or a clone
 * that shares neither memory nor the thread group) gets no pthread_atfork
 * handlers from glibc, so the child would keep the parent's guards with
 * nobody to release them and hang on its first access. Every other number
 * passes straight through; syncguard's own system calls come this way
 * too, so this adds no lock and no allocation. */
#include "config.h"

#include <sched.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/dl.h"
#include "preload/root.h"
#include "preload/shim.h"

/* clone's flags (a1) and stack (a2): a plain fork when the child gets a
 * copy of everything and returns here on its own copy of this stack. */
static int is_fork(long number, long flags, long stack)
{
#ifdef SYS_fork /* not on aarch64, whose fork is a clone */
    if (number == SYS_fork)
        return 1;
#endif
    return number == SYS_clone && stack == 0 &&
           !(flags & (CLONE_VM | CLONE_VFORK | CLONE_THREAD));
}

SG_SHIM(long, syscall, (long number, ...))
{
    va_list ap;
    va_start(ap, number);
    long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
    long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
    va_end(ap);
    if (SG_UNLIKELY(is_fork(number, a1, a2)) && sg_in_syncguard == 0)
        return sg_fork_raw(SG_NEXT(syscall), number, a1, a2, a3, a4, a5);
    return SG_NEXT(syscall)(number, a1, a2, a3, a4, a5, a6);
}
