/* SPDX-License-Identifier: Apache-2.0 */
/* What the shims tell the model: the host is about to wait for something
 * (snapshot what it covers), work was enqueued, an event recorded. Seeing
 * it complete releases copies: that is life/observe.c's. Each function
 * takes sg_model_lock itself unless it says otherwise. */
#ifndef SG_MODEL_SYNC_H
#define SG_MODEL_SYNC_H

#include <cuda.h>

#include "model/model.h"

/* Whether any copy is guarded: when none is, observations and event
 * bookkeeping cannot matter to any copy, and shims skip them. */
int sg_observe_needed(void);
/* From now on observations and the streams' bookkeeping always count:
 * something other than a guarded copy (devmem/) depends on them. */
void sg_observe_always(void);

/* What waiting for s now covers; *info (if not NULL) describes s. */
void sg_snapshot_stream(CUstream s, int per_thread, struct sg_vc *out,
                        struct sg_stream_info *info) SG_EXCLUDES(sg_model_lock);
void sg_snapshot_event(CUevent e, struct sg_vc *out) SG_EXCLUDES(sg_model_lock);
/* Every stream of ctx; NULL: of every context. */
void sg_snapshot_ctx(CUcontext ctx, struct sg_vc *out) SG_EXCLUDES(sg_model_lock);
/* What the host synchronized with, and where: kept for reports, which say
 * why the host's synchronization did not cover a copy. */
enum sg_sync_target {
    SG_SYNC_STREAM,   /* stream synchronize or successful query */
    SG_SYNC_EVENT,    /* event synchronize or successful query */
    SG_SYNC_CONTEXT,  /* context synchronize or destroy */
    SG_SYNC_COPY,     /* a synchronous copy that returned */
    SG_SYNC_HOST_FN,  /* a host function or stream callback started */
};

#define SG_SYNC_FRAMES 8

struct sg_sync_site {
    uint64_t serial; /* order among the process's observations, from 1 */
    const char *api;
    int target; /* enum sg_sync_target */
    uintptr_t handle; /* the stream, event or context */
    struct sg_stream_info stream; /* SG_SYNC_STREAM/COPY/HOST_FN: which stream */
    long tid;
    int npcs;
    uintptr_t pcs[SG_SYNC_FRAMES];
};

/* A site for a call about to observe something (the caller's stack is
 * captured only when the call succeeds, in life's sg_observe_if). */
#define SG_SYNC_SITE(api_, target_, handle_) \
    { .api = (api_), .target = (target_), .handle = (uintptr_t)(handle_) }

/* An operation the host is about to enqueue on s and will see done: a
 * synchronous copy (the call returns when it is), an async copy into
 * pageable memory (likewise), a host function (when it starts). Begin
 * before enqueuing it; end it (life's sg_sync_op_end) when it is done (ok)
 * or failed to enqueue. */
struct sg_sync_op {
    struct sg_vc covered;
    struct sg_sync_site site;
    CUstream stream;
    int per_thread;
    uint64_t seq; /* its place on its stream, once the driver accepts it */
};
/* Begin takes no place in the stream (the driver may refuse the call); the
 * place is taken when the driver accepted it (sg_sync_op_enqueued, from
 * life's sg_sync_op_end), or for one that runs asynchronously (a host
 * function) is foretold in op->seq, right under the enqueue order lock. */
void sg_sync_op_begin(struct sg_sync_op *op, const char *api, int target, CUstream s,
                      int per_thread) SG_EXCLUDES(sg_model_lock);
void sg_sync_op_enqueued(struct sg_sync_op *op) SG_EXCLUDES(sg_model_lock);

/* ---- one order for the model and the driver ----
 * Two threads enqueueing on one stream must find their work in the same
 * order in the model as in the driver: a shim that enqueues work holds the
 * enqueue order lock from before its real call until the model took the
 * work's place. It is a recursive mutex of its own (not sg_model_lock: it
 * is held across the driver call), never taken by the fault handler, and
 * never held across a call that waits for the device. */
void sg_order_lock(void);
void sg_order_unlock(void);
void sg_order_after_fork_child(void);
static inline void sg_order_unlock_scope(int *held)
{
    if (*held)
        sg_order_unlock();
}
/* Takes the lock when order can matter: only once the process has pinned
 * memory can a copy be guarded, and only then does the model's order of a
 * stream's work decide anything. Without it every launch and stream call
 * of every thread would go through one lock held across the driver call.
 * 1 when taken. */
int sg_order_lock_if_pinned(void);
/* The rest of the enclosing block (the shim) holds the lock, if taken. */
#define SG_IN_ORDER()                                                          \
    __attribute__((cleanup(sg_order_unlock_scope))) int sg_in_order_ =       \
        sg_order_lock_if_pinned();                                             \
    (void)sg_in_order_

/* ---- gates (model/gates.c); with sg_model_lock held ----
 * Work that may not pass until the host acts: a wait-value operation, a
 * host function until it returns. A token (0: no room; every copy then
 * counts as behind a gate). */
uint64_t sg_gate_add(uint32_t stream, uint64_t seq) SG_REQUIRES(sg_model_lock);
/* Host functions enqueued and not yet returned (delta +1 when one is
 * prepared, -1 when it returned or was refused). Any lock, or none. */
void sg_host_fns_pending_add(int delta);
int sg_host_fns_pending(void);
/* How many gates are live now (a racy count: for sizing, not deciding). */
int sg_gates_live(void);
void sg_gate_passed(uint64_t token) SG_REQUIRES(sg_model_lock);
/* An observation covered vc: the wait-value gates it covers passed. */
void sg_gates_passed_covered(const struct sg_vc *vc) SG_REQUIRES(sg_model_lock);
/* Whether a copy that waits for what after says may be behind a live
 * gate. Signal-safe. */
int sg_gate_before(const struct sg_clock *after) SG_REQUIRES(sg_model_lock);
void sg_gates_after_fork_child(void);
/* A wait-value operation on s was accepted: its place, and its gate
 * (counted whether or not any copy is guarded now: copies enqueued behind
 * it later are behind it). Takes sg_model_lock. */
void sg_note_gate(CUstream s, int per_thread) SG_EXCLUDES(sg_model_lock);
/* With sg_model_lock held: the serial of the latest observation, and the
 * newest sites later than a serial (newest first). Signal-safe. */
uint64_t sg_sync_serial(void) SG_REQUIRES(sg_model_lock);
int sg_sync_sites_since(uint64_t serial, struct sg_sync_site *out, int max)
    SG_REQUIRES(sg_model_lock);
/* With sg_model_lock held: numbers the site as the latest observation and
 * keeps it for reports. */
void sg_sync_remember(struct sg_sync_site *site) SG_REQUIRES(sg_model_lock);

void sg_note_event_record(CUevent e, CUstream s, int per_thread) SG_EXCLUDES(sg_model_lock);
void sg_note_stream_wait(CUstream s, int per_thread, CUevent e) SG_EXCLUDES(sg_model_lock);
/* Untracked work (a kernel, a memset) enqueued on a stream. */
void sg_note_stream_work(CUstream s, int per_thread) SG_EXCLUDES(sg_model_lock);
/* Work on s that also follows everything in after (a graph launch follows
 * the previous launch of the same graph); *then receives what waiting for
 * it will show. */
void sg_note_ordered_work(CUstream s, int per_thread, const struct sg_vc *after,
                          struct sg_vc *then) SG_EXCLUDES(sg_model_lock);

/* Whether a stream is being captured into a graph: its work then does not
 * run, and events recorded or waited for on it are graph edges only. */
int sg_stream_is_capturing(CUstream s, int per_thread);

/* Whether a pointer is host memory: pinned (known to syncguard, or to the
 * driver), or unknown to the driver (pageable); not device or managed
 * memory (model/hostkind.c). */
int sg_is_host_pointer(CUdeviceptr p);

#endif
