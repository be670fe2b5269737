/* SPDX-License-Identifier: Apache-2.0 */
/* A new device operation against the shadow. Before the driver sees it,
 * each of its accesses is looked up: an earlier access of another stream
 * that conflicts with it (one of the two writes) and that the new
 * operation does not follow (its stream's vector clock, the legacy-stream
 * rules and what the host has observed complete) is a race. It is
 * reported (race.c), and with device_fix the new operation's stream is
 * made to wait for the earlier stream's work, through an event syncguard
 * records there: the device then runs the two in the program's order. The
 * earlier stream's work so far cannot wait for an operation not enqueued
 * yet, so the wait cannot deadlock. After the driver accepted it, the
 * operation's accesses enter the shadow, stamped with its place. */
#include "config.h"

#include <string.h>

#include "base/options.h"
#include "capture/python.h"
#include "capture/stack.h"
#include "devmem/devmem_int.h"
#include "devmem/race.h"
#include "driver/driver.h"
#include "driver/eventpool.h"
#include "model/sync.h"

#define MAX_CLASHES 4 /* earlier streams one operation is ordered after */

static int active;
static struct sg_vc host_observed SG_GUARDED_BY(sg_model_lock);

int sg_devmem_active(void)
{
    return __atomic_load_n(&active, __ATOMIC_RELAXED);
}

void sg_devmem_op_init(struct sg_dev_op *op, const char *api, int origin, CUstream s,
                       int per_thread)
{
    memset(op, 0, sizeof *op);
    op->api = api, op->origin = (unsigned char)origin;
    op->stream = s, op->per_thread = per_thread;
}

void sg_devmem_op_add(struct sg_dev_op *op, CUdeviceptr p, size_t n, int write)
{
    if (!sg_opt.device_races || !p || !n || op->n == SG_DEV_ACCESSES)
        return;
    int kind = sg_host_kind((uintptr_t)p, 1);
    if (kind != SG_HOST_DEVICE && kind != SG_HOST_MANAGED) /* host memory: guarded elsewhere */
        return;
    op->acc[op->n++] = (struct sg_dev_access){ (uintptr_t)p, (uintptr_t)p + n, write };
}

/* What the new operation's accesses meet, gathered under the lock. */
struct gather {
    int n;
    struct sg_dev_clash_seen seen[MAX_CLASHES];
};

SG_REQUIRES(sg_model_lock) static void on_clash(enum sg_dev_clash kind, uintptr_t at,
                                                const struct sg_dev_stamp *old, void *arg)
{
    struct gather *g = arg;
    for (int i = 0; i < g->n; i++)
        if (g->seen[i].old.stream == old->stream) {
            if (old->seq > g->seen[i].old.seq) /* wait for the latest */
                g->seen[i].old.seq = old->seq;
            return;
        }
    if (g->n == MAX_CLASHES)
        return;
    struct sg_dev_clash_seen *s = &g->seen[g->n++];
    s->kind = kind, s->at = at, s->old = *old;
    const struct sg_dev_opinfo *o = sg_dev_op_find(old->op);
    s->have_op = o != NULL;
    if (o)
        s->op = *o;
}

SG_REQUIRES(sg_model_lock) static void gather(const struct sg_dev_op *op, struct sg_stream *st,
                                              struct sg_stream_info *si, struct gather *g)
{
    struct sg_vc covered = { 0 };
    sg_stream_info(st, si);
    sg_stream_peek(st, &covered, NULL);
    sg_vc_join(&covered, &host_observed);
    for (int i = 0; i < op->n; i++)
        sg_shadow_clashes(op->acc[i].lo, op->acc[i].hi, op->acc[i].write, si->idx, &covered,
                          on_clash, g);
    sg_vc_free(&covered);
}

/* Makes stream `later` wait for everything stream w has been given so far;
 * 0 when it does. */
static int order_after(const struct sg_stream_info *later, const struct sg_stream_info *w)
{
    if (w->kind == SG_STREAM_PER_THREAD) /* another thread's: no handle names it here */
        return -1;
    const struct sg_driver *d = sg_driver();
    CUevent ev = sg_event_pool_get(w->ctx);
    if (!ev)
        return -1;
    int ok = d->cuEventRecord(ev, w->handle) == CUDA_SUCCESS &&
             d->cuStreamWaitEvent(later->handle, ev, 0) == CUDA_SUCCESS;
    sg_event_pool_put(w->ctx, ev);
    if (!ok)
        return -1;
    struct sg_vc then = { 0 };
    sg_lock(&sg_model_lock);
    sg_stream_snapshot(sg_stream_get(w->handle, 0), &then);
    sg_stream_wait_vc(sg_stream_get(later->handle, later->kind == SG_STREAM_PER_THREAD), &then);
    sg_unlock(&sg_model_lock);
    sg_vc_free(&then);
    return 0;
}

void sg_devmem_before(struct sg_dev_op *op)
{
    if (!sg_opt.device_races || op->n == 0 || sg_stream_is_capturing(op->stream, op->per_thread))
        return;
    if (!__atomic_exchange_n(&active, 1, __ATOMIC_RELAXED))
        sg_observe_always(); /* from now on every stream's work and edges count */
    op->tracked = 1;
    struct gather g = { 0 };
    struct sg_stream_info si;
    sg_lock(&sg_model_lock);
    gather(op, sg_stream_get(op->stream, op->per_thread), &si, &g);
    sg_unlock(&sg_model_lock);
    for (int i = 0; i < g.n; i++) {
        int fixed = sg_opt.device_fix && order_after(&si, &g.seen[i].op.stream) == 0;
        if (!g.seen[i].have_op) /* its stream still known by index only: no fix */
            fixed = 0;
        sg_devmem_report(op, &si, &g.seen[i], fixed);
    }
}

void sg_devmem_after(const struct sg_dev_op *op, int ok)
{
    if (!op->tracked || !ok)
        return;
    uintptr_t pcs[SG_MAX_FRAMES];
    int npcs = sg_stack_capture(pcs, SG_MAX_FRAMES);
    struct sg_pyframe py[SG_MAX_PYFRAMES];
    int npy = sg_python_capture(py, SG_MAX_PYFRAMES);
    sg_lock(&sg_model_lock);
    struct sg_stream *st = sg_stream_get(op->stream, op->per_thread);
    uint64_t next;
    struct sg_vc ignored = { 0 };
    sg_stream_peek(st, &ignored, &next);
    sg_vc_free(&ignored);
    struct sg_dev_opinfo *o = sg_dev_op_new();
    o->api = op->api, o->kernel = op->kernel, o->origin = op->origin;
    sg_stream_info(st, &o->stream);
    o->seq = next - 1; /* the shim noted the operation's place already */
    o->tid = sg_gettid();
    o->n = op->n;
    memcpy(o->acc, op->acc, sizeof o->acc);
    o->npcs = npcs;
    memcpy(o->pcs, pcs, (size_t)npcs * sizeof *pcs);
    o->npy = npy;
    memcpy(o->py, py, (size_t)npy * sizeof *py);
    struct sg_dev_stamp stamp = { o->stream.idx, o->seq, o->id };
    for (int i = 0; i < op->n; i++)
        sg_shadow_apply(op->acc[i].lo, op->acc[i].hi, op->acc[i].write, &stamp);
    sg_unlock(&sg_model_lock);
}

void sg_devmem_observed(const struct sg_vc *vc)
{
    if (sg_devmem_active())
        sg_vc_join(&host_observed, vc);
}

void sg_devmem_freeing(CUdeviceptr p)
{
    CUdeviceptr base;
    size_t size;
    if (!sg_devmem_active() || !p || !sg_driver()->cuMemGetAddressRange ||
        sg_driver()->cuMemGetAddressRange(&base, &size, p) != CUDA_SUCCESS)
        return;
    sg_lock(&sg_model_lock);
    sg_shadow_forget((uintptr_t)base, (uintptr_t)base + size);
    sg_unlock(&sg_model_lock);
}
