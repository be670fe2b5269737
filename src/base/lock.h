/* SPDX-License-Identifier: Apache-2.0 */
/* A lock that is safe to take from the fault handler as long as the
 * interrupted code holds none (sg_locks_held): no allocation, no pthread
 * internals, just an atomic word and futex. */
#ifndef SG_BASE_LOCK_H
#define SG_BASE_LOCK_H

#include <stdatomic.h>

#include "base/common.h"

typedef struct {
    atomic_int word; /* 0 free, 1 held, 2 held with waiters */
    atomic_long owner;
} sg_lock_t;

#define SG_LOCK_INIT { 0, 0 }

void sg_lock(sg_lock_t *l);
void sg_unlock(sg_lock_t *l);
int sg_lock_held_by_me(sg_lock_t *l);
/* In a forked child, whose only thread is the one that forked: the lock
 * is free, whoever held it in the parent. */
void sg_lock_reset(sg_lock_t *l);
/* The same for a lock the forking thread itself took (in an atfork
 * handler): no longer counted as held by it either. */
void sg_lock_reset_held(sg_lock_t *l);

/* How many of syncguard's locks this thread holds. While any, the thread
 * is inside syncguard (sg_in_syncguard counts them too): a signal handler
 * of the program that runs then must not take a lock (it would wait for
 * itself), so a fault there is handled without one and leaves work behind
 * (sg_lock_deferred), done by the function registered here once the
 * thread has given its last lock back. */
extern SG_TLS int sg_locks_held;
extern SG_TLS int sg_lock_deferred;
void sg_lock_set_after_last_unlock(void (*fn)(void));

/* The calling thread's id, cached. */
long sg_gettid(void);
/* After fork() the child's thread id changes; the cached one must go. */
void sg_forget_tid(void);

#endif
