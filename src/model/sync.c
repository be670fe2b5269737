/* SPDX-License-Identifier: Apache-2.0 */
/* The host side of happens-before: what each synchronization call covers
 * (the snapshot is taken before the call: work enqueued while it waits is
 * not covered by it), the sites of past observations, and the ordering
 * that other work adds. Releasing what an observation covers is life's. */
#include "config.h"

#include <pthread.h>

#include "base/lock.h"
#include "driver/driver.h"
#include "model/copies.h"
#include "model/model.h"
#include "model/sync.h"

static int observe_always;

void sg_observe_always(void)
{
    __atomic_store_n(&observe_always, 1, __ATOMIC_RELAXED);
}

int sg_observe_needed(void)
{
    return sg_copies_active_count() != 0 || sg_host_fns_pending() ||
           __atomic_load_n(&observe_always, __ATOMIC_RELAXED);
}

void sg_snapshot_stream(CUstream s, int per_thread, struct sg_vc *out,
                        struct sg_stream_info *info_out)
{
    sg_lock(&sg_model_lock);
    struct sg_stream *st = sg_stream_get(s, per_thread);
    struct sg_stream_info info;
    sg_stream_info(st, &info);
    if (info_out)
        *info_out = info;
    /* Waiting for the legacy stream waits like an operation enqueued on it
     * would: for the earlier work of every blocking stream too (measured on
     * the GPU: tests/gpu/probe_legacy_sync.c). But nothing is enqueued: a
     * query that answers not ready must leave no operation that would
     * order later blocking-stream work after those streams (#11). */
    if (info.kind == SG_STREAM_LEGACY)
        sg_stream_peek(st, out, NULL);
    else
        sg_stream_snapshot(st, out);
    sg_unlock(&sg_model_lock);
}

void sg_sync_op_begin(struct sg_sync_op *op, const char *api, int target, CUstream s,
                      int per_thread)
{
    struct sg_sync_site site = SG_SYNC_SITE(api, target, s);
    op->site = site;
    op->covered = (struct sg_vc){ 0 };
    op->stream = s, op->per_thread = per_thread;
    sg_lock(&sg_model_lock);
    struct sg_stream *st = sg_stream_get(s, per_thread);
    sg_stream_info(st, &op->site.stream);
    sg_stream_peek(st, &op->covered, &op->seq);
    sg_unlock(&sg_model_lock);
}

void sg_sync_op_enqueued(struct sg_sync_op *op)
{
    sg_order_lock();
    sg_lock(&sg_model_lock);
    op->seq = sg_stream_enqueue(sg_stream_get(op->stream, op->per_thread));
    sg_unlock(&sg_model_lock);
    sg_order_unlock();
}

/* Recursive: a shim's model work may reach another shim's. */
static pthread_mutex_t order_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void sg_order_lock(void)
{
    pthread_mutex_lock(&order_lock);
}

int sg_order_lock_if_pinned(void)
{
    if (!sg_pinned_any())
        return 0;
    sg_order_lock();
    return 1;
}

void sg_order_unlock(void)
{
    pthread_mutex_unlock(&order_lock);
}

void sg_order_after_fork_child(void)
{
    /* The child's only thread may not be the one that held it. */
    static const pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
    order_lock = fresh;
}

void sg_note_gate(CUstream s, int per_thread)
{
    if (sg_stream_is_capturing(s, per_thread))
        return;
    sg_lock(&sg_model_lock);
    struct sg_stream *st = sg_stream_get(s, per_thread);
    struct sg_stream_info info;
    sg_stream_info(st, &info);
    sg_gate_add(info.idx, sg_stream_enqueue(st));
    sg_unlock(&sg_model_lock);
}

void sg_snapshot_event(CUevent e, struct sg_vc *out)
{
    sg_lock(&sg_model_lock);
    sg_event_snapshot(e, out);
    sg_unlock(&sg_model_lock);
}

void sg_snapshot_ctx(CUcontext ctx, struct sg_vc *out)
{
    sg_lock(&sg_model_lock);
    sg_ctx_snapshot(ctx, out);
    sg_unlock(&sg_model_lock);
}

#define SITES 16

static struct sg_sync_site sites[SITES];
static uint64_t last_serial;

uint64_t sg_sync_serial(void)
{
    return last_serial;
}

int sg_sync_sites_since(uint64_t serial, struct sg_sync_site *out, int max)
{
    int n = 0;
    for (uint64_t s = last_serial; s > serial && s + SITES > last_serial && n < max; s--)
        out[n++] = sites[s % SITES];
    return n;
}

void sg_sync_remember(struct sg_sync_site *site)
{
    site->serial = ++last_serial;
    sites[site->serial % SITES] = *site;
}

int sg_stream_is_capturing(CUstream s, int per_thread)
{
    const struct sg_driver *d = sg_driver();
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    if (s == NULL)
        s = per_thread ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
    return d->cuStreamIsCapturing && d->cuStreamIsCapturing(s, &st) == CUDA_SUCCESS &&
           st != CU_STREAM_CAPTURE_STATUS_NONE;
}

void sg_note_event_record(CUevent e, CUstream s, int per_thread)
{
    if (sg_stream_is_capturing(s, per_thread))
        return;
    struct sg_vc vc = { 0 };
    sg_lock(&sg_model_lock);
    struct sg_stream *st = sg_stream_get(s, per_thread);
    sg_stream_enqueue(st); /* the record is an operation on st */
    sg_stream_snapshot(st, &vc);
    sg_event_recorded(e, &vc);
    sg_unlock(&sg_model_lock);
    sg_vc_free(&vc);
}

void sg_note_stream_work(CUstream s, int per_thread)
{
    /* Captured work does not run: it orders nothing (#11). */
    if (sg_stream_is_capturing(s, per_thread))
        return;
    sg_lock(&sg_model_lock);
    sg_stream_enqueue(sg_stream_get(s, per_thread));
    sg_unlock(&sg_model_lock);
}

void sg_note_ordered_work(CUstream s, int per_thread, const struct sg_vc *after,
                          struct sg_vc *then)
{
    sg_lock(&sg_model_lock);
    struct sg_stream *st = sg_stream_get(s, per_thread);
    sg_stream_wait_vc(st, after);
    sg_stream_enqueue(st);
    sg_stream_snapshot(st, then);
    sg_unlock(&sg_model_lock);
}

void sg_note_stream_wait(CUstream s, int per_thread, CUevent e)
{
    if (sg_stream_is_capturing(s, per_thread))
        return;
    struct sg_vc vc = { 0 };
    sg_lock(&sg_model_lock);
    sg_event_snapshot(e, &vc);
    sg_stream_wait_vc(sg_stream_get(s, per_thread), &vc);
    sg_unlock(&sg_model_lock);
    sg_vc_free(&vc);
}

/* sg_is_host_pointer: model/hostkind.c */
