/* SPDX-License-Identifier: Apache-2.0 */
/* The futex lock declared in lock.h. It exists because the fault handler
 * must be able to take the model lock: pthread mutexes are not specified as
 * async-signal-safe, while an atomic exchange and a futex system call are. */
#include "config.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/common.h"
#include "base/lock.h"

static SG_TLS long cached_tid;
SG_TLS int sg_locks_held;
SG_TLS int sg_lock_deferred;
SG_TLS int sg_in_driver;
SG_TLS uintptr_t sg_driver_frames[SG_DRIVER_CALLS];
static void (*after_last_unlock)(void);

void sg_lock_set_after_last_unlock(void (*fn)(void))
{
    after_last_unlock = fn;
}

void sg_run_deferred(void)
{
    if (after_last_unlock)
        after_last_unlock();
}

void sg_driver_longjmp(uintptr_t here, uintptr_t sp)
{
    int n = sg_in_driver;
    while (n > 0 && (n > SG_DRIVER_CALLS || !(here <= sp && sp < sg_driver_frames[n - 1])))
        n--;
    sg_in_driver = n; /* work left behind is done when it next leaves the driver or a lock */
}

long sg_gettid(void)
{
    if (SG_UNLIKELY(cached_tid == 0))
        cached_tid = syscall(SYS_gettid);
    return cached_tid;
}

void sg_forget_tid(void)
{
    cached_tid = 0;
}

static void futex_wait(atomic_int *w, int val)
{
    syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_one(atomic_int *w)
{
    syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Counted before the lock is taken and after it is given back: a signal
 * handler that interrupts the thread anywhere in between finds it inside
 * syncguard, where a shim passes through and a fault takes no lock. (The
 * lock itself is atomics, which the thread-safety analysis does not see:
 * these functions are what it takes on trust.) */
SG_NO_THREAD_SAFETY_ANALYSIS void sg_lock(sg_lock_t *l)
{
    sg_locks_held++;
    sg_in_syncguard++;
    int c = 0;
    if (atomic_compare_exchange_strong(&l->word, &c, 1))
        goto got;
    if (c != 2)
        c = atomic_exchange(&l->word, 2);
    while (c != 0) {
        futex_wait(&l->word, 2);
        c = atomic_exchange(&l->word, 2);
    }
got:
    atomic_store_explicit(&l->owner, sg_gettid(), memory_order_relaxed);
}

SG_NO_THREAD_SAFETY_ANALYSIS void sg_unlock(sg_lock_t *l)
{
    atomic_store_explicit(&l->owner, 0, memory_order_relaxed);
    if (atomic_fetch_sub(&l->word, 1) != 1) {
        atomic_store(&l->word, 0);
        futex_wake_one(&l->word);
    }
    sg_in_syncguard--;
    if (--sg_locks_held == 0 && SG_UNLIKELY(sg_lock_deferred) && sg_in_driver == 0)
        sg_run_deferred();
}

int sg_lock_held_by_me(sg_lock_t *l)
{
    return atomic_load_explicit(&l->word, memory_order_relaxed) != 0 &&
           atomic_load_explicit(&l->owner, memory_order_relaxed) == sg_gettid();
}

void sg_lock_reset(sg_lock_t *l)
{
    atomic_store(&l->word, 0);
    atomic_store_explicit(&l->owner, 0, memory_order_relaxed);
}

SG_NO_THREAD_SAFETY_ANALYSIS void sg_lock_reset_held(sg_lock_t *l)
{
    sg_lock_reset(l);
    sg_in_syncguard--;
    sg_locks_held--;
}
