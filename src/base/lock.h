/* SPDX-License-Identifier: Apache-2.0 */
/* A lock that is safe to take from the fault handler as long as the
 * interrupted code is not syncguard itself (checked with sg_in_syncguard):
 * no allocation, no pthread internals, just an atomic word and futex. */
#ifndef SG_BASE_LOCK_H
#define SG_BASE_LOCK_H

#include <stdatomic.h>

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

/* The calling thread's id, cached. */
long sg_gettid(void);
/* After fork() the child's thread id changes; the cached one must go. */
void sg_forget_tid(void);

#endif
