/* SPDX-License-Identifier: Apache-2.0 */
/* Host functions and stream callbacks. When the driver starts one, all
 * work enqueued before it on its stream is complete, and the host thread
 * running it knows that: syncguard's trampoline observes it, then calls the
 * program's function. Host synchronization is not tracked between host
 * threads (a copy observed complete by one is released for all), so a
 * thread that waits for the callback is covered too.
 *
 * While it runs, the work after it on its stream (and on streams that wait
 * for it) cannot start: its accesses to the bytes of such a copy are no
 * race, and waiting for that copy would never end. So a host function is a
 * gate until it returns (model/gates.c), and the fault handler lifts the
 * guard of a copy behind the running one until it returns. */
#include "config.h"

#include <stdlib.h>

#include "base/common.h"
#include "base/lock.h"
#include "guard/guard.h"
#include "work/hostfn.h"
#include "life/life.h"
#include "model/sync.h"

/* The host function this thread runs: its place in stream order. */
struct running {
    int active;  /* 1: its place is known; 2: a graph host node whose is not */
    uint32_t stream;
    uint64_t seq;
};

#define SUSPENDED_MAX 16

static SG_TLS struct running running;
/* Copies whose guard this thread's host function lifted, to be put back
 * when it returns (more stay unguarded: a race on them is missed). */
static SG_TLS int nsuspended;
static SG_TLS struct suspended {
    struct sg_copy *c;
    uint64_t id;
} suspended[SUSPENDED_MAX];

struct sg_host_fn *sg_host_fn_prepare(CUstream s, int per_thread, const char *api, int capturing)
{
    if (capturing > 0 || (capturing < 0 && sg_stream_is_capturing(s, per_thread)))
        return NULL;
    struct sg_host_fn *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    sg_sync_op_begin(&t->op, api, SG_SYNC_HOST_FN, s, per_thread);
    sg_lock(&sg_model_lock);
    t->gate = sg_gate_add(t->op.site.stream.idx, t->op.seq);
    sg_unlock(&sg_model_lock);
    sg_host_fns_pending_add(1);
    return t;
}

void sg_host_fn_enqueued(CUstream s, int per_thread)
{
    struct sg_sync_op op = { .stream = s, .per_thread = per_thread };
    sg_sync_op_enqueued(&op);
}

static void gate_passed(uint64_t gate)
{
    sg_lock(&sg_model_lock);
    sg_gate_passed(gate);
    sg_unlock(&sg_model_lock);
}

void sg_host_fn_discard(struct sg_host_fn *t)
{
    gate_passed(t->gate);
    sg_host_fns_pending_add(-1);
    sg_vc_free(&t->op.covered);
    free(t);
}

/* The function returned: the copies behind it get their guards back. */
static void resume_suspended(void)
{
    if (!nsuspended)
        return;
    sg_lock(&sg_model_lock);
    for (int i = 0; i < nsuspended; i++) {
        struct sg_copy *c = suspended[i].c;
        if (c->id == suspended[i].id && sg_copy_in_use(c) && c->unguarded) {
            sg_copy_mark_guarded(c);
            sg_guard_update(c->pg_lo, c->pg_hi);
        }
    }
    nsuspended = 0;
    sg_unlock(&sg_model_lock);
}

static void begin(struct sg_host_fn *t, int ok)
{
    if (sg_observe_needed())
        sg_sync_op_end(&t->op, ok);
    else
        sg_vc_free(&t->op.covered);
    running = (struct running){ 1, t->op.site.stream.idx, t->op.seq };
}

static void end(struct sg_host_fn *t)
{
    running.active = 0;
    resume_suspended();
    gate_passed(t->gate);
    sg_host_fns_pending_add(-1);
    free(t);
}

void CUDA_CB sg_host_fn_run(void *arg)
{
    struct sg_host_fn *t = arg;
    begin(t, 1);
    t->fn(t->data);
    end(t);
}

void CUDA_CB sg_host_fn_run_callback(CUstream s, CUresult status, void *arg)
{
    struct sg_host_fn *t = arg;
    begin(t, status == CUDA_SUCCESS);
    t->cb(s, status, t->data);
    end(t);
}

void sg_host_fn_node_begin(uint32_t stream, uint64_t seq)
{
    running = seq ? (struct running){ 1, stream, seq } : (struct running){ 2, 0, 0 };
}

void sg_host_fn_node_end(void)
{
    running.active = 0;
}

int sg_host_fn_before_copy(struct sg_copy *c)
{
    if (running.active != 1 || !sg_clock_covers(&c->after, running.stream, running.seq))
        return 0;
    if (!c->unguarded && nsuspended < SUSPENDED_MAX)
        suspended[nsuspended].c = c, suspended[nsuspended++].id = c->id;
    sg_copy_mark_unguarded(c);
    sg_guard_update(c->pg_lo, c->pg_hi);
    return 1;
}

int sg_in_host_fn(void)
{
    return running.active != 0;
}
