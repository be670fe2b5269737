/* SPDX-License-Identifier: Apache-2.0 */
/* sgt_in_lock.h - a signal that arrives while syncguard holds its lock.
 *
 * syncguard guards a copy's pages with mprotect, as a system call through
 * libc's syscall(), while it holds its model lock (inside the copy wrapper).
 * A program that includes this header defines syscall() itself (the
 * executable comes first in the loader's search order, so syncguard's and
 * the emulator's calls arrive here); once armed, the first mprotect to
 * PROT_NONE raises SIGNAL_IN_LOCK right after the real call (or, armed with
 * sgt_in_lock_arm_before, the first mprotect to the protection given, just
 * before the real call): the program's handler then runs at that exact
 * moment, deterministically, the way an asynchronous signal (a timer,
 * SIGCHLD, the self-pipe trick of an event loop) could arrive there.  Link
 * with -rdynamic.
 *
 * Include it from one source file of a program only. */
#ifndef SGT_IN_LOCK_H
#define SGT_IN_LOCK_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define SIGNAL_IN_LOCK SIGUSR1

static volatile sig_atomic_t sgt_in_lock_armed, sgt_in_lock_raised, sgt_in_lock_before;
static volatile int sgt_in_lock_prot;

/* The next guard syncguard sets raises SIGNAL_IN_LOCK. */
static inline void sgt_in_lock_arm(void)
{
    sgt_in_lock_raised = 0;
    sgt_in_lock_before = 0;
    sgt_in_lock_prot = PROT_NONE;
    sgt_in_lock_armed = 1;
}

/* The next mprotect to prot raises SIGNAL_IN_LOCK before it is made. */
static inline void sgt_in_lock_arm_before(int prot)
{
    sgt_in_lock_raised = 0;
    sgt_in_lock_before = 1;
    sgt_in_lock_prot = prot;
    sgt_in_lock_armed = 1;
}

static inline void sgt_in_lock_raise_if(long n, long prot, int before)
{
    if (n == SYS_mprotect && prot == sgt_in_lock_prot && sgt_in_lock_armed &&
        sgt_in_lock_before == before) {
        sgt_in_lock_armed = 0;
        sgt_in_lock_raised = 1;
        raise(SIGNAL_IN_LOCK);
    }
}

long syscall(long n, ...)
{
    static long (*real)(long, ...);
    if (!real)
        real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    va_list ap;
    va_start(ap, n);
    long a[6];
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    sgt_in_lock_raise_if(n, a[2], 1);
    long r = real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
    sgt_in_lock_raise_if(n, a[2], 0);
    return r;
}

#endif
