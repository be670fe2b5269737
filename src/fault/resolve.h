/* SPDX-License-Identifier: Apache-2.0 */
/* Resolving an access to memory of a pending copy, whether it arrived as a
 * fault (fault/handler.c) or was seen in a system call (fault/access.c):
 * report per mode, wait for the copy, release its guard. Signal-safe. */
#ifndef SG_FAULT_RESOLVE_H
#define SG_FAULT_RESOLVE_H

#include <stdint.h>
#include <ucontext.h>

#include "base/thread_safety.h"
#include "model/copies.h"

enum sg_access {
    SG_ACCESS_READ = 0,
    SG_ACCESS_WRITE = 1,
    SG_ACCESS_FREE = 2, /* the memory goes back to the driver */
};

/* Called with sg_model_lock held; returns with it released. c conflicts
 * with an access (enum sg_access) at addr; uc is the signal context (NULL:
 * the access is the caller's own, e.g. a system call about to run). */
void sg_resolve(struct sg_copy *c, uintptr_t addr, int access, ucontext_t *uc)
    SG_RELEASE(sg_model_lock);

/* With sg_model_lock held (and held again on return): the driver's own
 * access at addr, inside a copy's or memset's call (model/incall.h) that is
 * not ordered after c, is reported, once per copy; nothing is waited for and
 * the driver is not called (the caller lets the access through). */
void sg_report_in_call(struct sg_copy *c, uintptr_t addr, int access, ucontext_t *uc)
    SG_REQUIRES(sg_model_lock);

/* With sg_model_lock held: c stays pending, but its guard is opened (an
 * access let through unreported and unchecked, for good). */
void sg_copy_leave_unguarded(struct sg_copy *c) SG_REQUIRES(sg_model_lock);

/* Called with sg_model_lock held; returns with it released. Waits for every
 * active copy over the pages of [lo, hi) and opens them, reporting nothing:
 * for accesses that touch a guarded page but no copy's bytes. */
void sg_settle(uintptr_t lo, uintptr_t hi) SG_RELEASE(sg_model_lock);
/* The same for the copies over [lo, hi) that are being handled (another
 * thread waits for them, or did until it left by siglongjmp): waits for
 * them and releases those still handled. Lock held; released. */
void sg_settle_handled(uintptr_t lo, uintptr_t hi) SG_RELEASE(sg_model_lock);

/* With sg_model_lock held (and still held on return): whether there is an
 * active copy over the pages of [lo, hi) and every one has finished on the
 * device, so that sg_settle there would wait for nothing. */
int sg_settle_done(uintptr_t lo, uintptr_t hi) SG_REQUIRES(sg_model_lock);

#endif
