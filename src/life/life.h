/* SPDX-License-Identifier: Apache-2.0 */
/* A copy's life: tracked when the driver accepts it (its pages guarded),
 * released when the host observes it complete (its pages opened again). */
#ifndef SG_LIFE_LIFE_H
#define SG_LIFE_LIFE_H

#include <cuda.h>
#include <stdint.h>

#include "capture/python.h"
#include "model/copies.h"
#include "model/copy_desc.h"
#include "model/sync.h"

/* One host range of a call, for the model: what the shim knows of it
 * (model/copy_desc.h) and the call's stream and enqueue site. */
struct sg_copy_request {
    SG_COPY_DESC;
    CUstream stream;
    int per_thread; /* the entry point was a _ptsz/_ptds variant */
    const struct sg_pyframe *py; /* the Python stack at enqueue, if any */
    int npy;
    int sampled_out; /* sample=N left the call unguarded: the model follows it */
};

/* Guards the host range of a copy that the driver has just accepted (and
 * will run: not one recorded by a stream capture). Normal context; takes
 * sg_model_lock. pcs: the enqueue stack. */
void sg_copy_track(const struct sg_copy_request *rq, const uintptr_t *pcs, int npcs)
    SG_EXCLUDES(sg_model_lock);

/* ---- with sg_model_lock held (safe in the fault handler) ---- */
/* Releases a copy: its slot is freed and its pages get the protection the
 * remaining copies need. The caller must not use c afterwards. */
void sg_copy_release(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* Releases every active copy that vc covers. */
void sg_copies_release_covered(const struct sg_vc *vc) SG_REQUIRES(sg_model_lock);

/* In a forked child: unprotect every guarded page and forget all copies. */
void sg_copies_after_fork_child(void);

/* ---- observations (life/observe.c); each takes sg_model_lock ---- */
/* If ok, releases the copies vc covers and remembers the site; frees vc
 * either way. site may be NULL. */
void sg_observe_if(int ok, struct sg_vc *vc, struct sg_sync_site *site) SG_EXCLUDES(sg_model_lock);
/* The end of an operation begun with sg_sync_op_begin (model/sync.h):
 * done (ok) or failed to enqueue. */
void sg_sync_op_end(struct sg_sync_op *op, int ok) SG_EXCLUDES(sg_model_lock);

#endif
