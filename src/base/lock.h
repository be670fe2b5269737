/* SPDX-License-Identifier: Apache-2.0 */
/* A lock that is safe to take from the fault handler as long as the
 * interrupted code holds none (sg_locks_held): no allocation, no pthread
 * internals, just an atomic word and futex. */
#ifndef SG_BASE_LOCK_H
#define SG_BASE_LOCK_H

#include <stdatomic.h>

#include "base/check.h"
#include "base/common.h"
#include "base/thread_safety.h"

typedef struct SG_CAPABILITY("mutex") sg_lock {
    atomic_int word; /* 0 free, 1 held, 2 held with waiters */
    atomic_long owner;
} sg_lock_t;

#define SG_LOCK_INIT { 0, 0 }

void sg_lock(sg_lock_t *l) SG_ACQUIRE(l);
void sg_unlock(sg_lock_t *l) SG_RELEASE(l);
/* Whether the calling thread holds l (what SG_DCHECK asks of a function
 * called with a lock held: base/check.h). */
int sg_lock_held_by_me(sg_lock_t *l);
#define SG_DCHECK_HELD(l) SG_DCHECK(sg_lock_held_by_me(l))
/* In a forked child, whose only thread is the one that forked: the lock
 * is free, whoever held it in the parent. */
void sg_lock_reset(sg_lock_t *l);
/* The same for a lock the forking thread itself took (in an atfork
 * handler): no longer counted as held by it either. */
void sg_lock_reset_held(sg_lock_t *l) SG_RELEASE(l);

/* How many of syncguard's locks this thread holds. While any, the thread
 * is inside syncguard (sg_in_syncguard counts them too): a signal handler
 * of the program that runs then must not take a lock (it would wait for
 * itself), so a fault there is handled without one and leaves work behind
 * (sg_lock_deferred), done by the function registered here once the
 * thread has given its last lock back (and left the driver: below). */
extern SG_TLS int sg_locks_held;
extern SG_TLS int sg_lock_deferred;
void sg_lock_set_after_last_unlock(void (*fn)(void));

/* How many calls into the driver this thread is inside: the program's
 * (through a shim's SG_FORWARD) and syncguard's own (driver/driver.c).
 * A fault meanwhile comes from a signal handler of the program that
 * interrupted the call, or from the driver itself; the fault handler must
 * then call nothing of the driver (the interrupted call may hold the
 * driver's locks, or be waiting in a way only its own return ends: the
 * CPU emulator's condition variable deadlocked so) and wait for nothing.
 * Work it leaves behind (sg_lock_deferred) is done once the thread is out
 * of both the driver and syncguard's locks. */
extern SG_TLS int sg_in_driver;
void sg_run_deferred(void);
/* The frames of the calls (the innermost SG_DRIVER_CALLS), for a jump
 * out of them: sg_driver_longjmp. */
#define SG_DRIVER_CALLS 16
extern SG_TLS uintptr_t sg_driver_frames[SG_DRIVER_CALLS];
static inline void sg_driver_enter(uintptr_t frame)
{
    if (sg_in_driver < SG_DRIVER_CALLS)
        sg_driver_frames[sg_in_driver] = frame;
    sg_in_driver++;
}
static inline void sg_driver_leave(void)
{
    if (--sg_in_driver == 0 && SG_UNLIKELY(sg_lock_deferred) && sg_locks_held == 0)
        sg_run_deferred();
}
/* A call into the driver, counted in sg_in_driver: SG_DRIVER_CALL(f(a, b)). */
#define SG_DRIVER_CALL(call)                                           \
    ({                                                                 \
        sg_driver_enter((uintptr_t)__builtin_frame_address(0));        \
        __typeof__(call) sg_driver_r_ = (call);                        \
        sg_driver_leave();                                             \
        sg_driver_r_;                                                  \
    })
/* A jump (siglongjmp) from the frame at here to stack pointer sp: a
 * signal handler of the program that leaves the calls it interrupted (a
 * timeout around a wait) leaves them for good, and the thread must not
 * stay "inside the driver" (its faults would all go unchecked). A target
 * inside a call lies between here and the call's frame; anything else
 * leaves it, wherever its stack is. */
void sg_driver_longjmp(uintptr_t here, uintptr_t sp);

/* The calling thread's id, cached. */
long sg_gettid(void);
/* After fork() the child's thread id changes; the cached one must go. */
void sg_forget_tid(void);

#endif
