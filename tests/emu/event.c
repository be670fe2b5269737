/* SPDX-License-Identifier: Apache-2.0 */
/* event.c - events and cross-stream waits.
 *
 * Recording an event enqueues a marker operation; the event then captures
 * "the marker of stream S completed", which, streams being in order, is all
 * the work enqueued on S before the record (plus, on the legacy stream, the
 * blocking streams' work the marker implicitly waits for).  Re-recording
 * replaces the capture; a never-recorded event is complete.
 *
 * Stream capture: a record on a capturing stream enqueues nothing; the
 * event remembers the capture sequence and its frontier, and a stream that
 * waits for it joins the capture there (how captures fork and join).  The
 * host may not query or synchronise with such an event
 * (CUDA_ERROR_CAPTURED_EVENT).  With the EXTERNAL flags, records and waits
 * on a capturing stream become event record and event wait nodes.
 */
#include "emu.h"

#include <stdlib.h>
#include <time.h>

struct CUevent_st {
    CUcontext ctx;
    unsigned int flags;
    int refs;                   /* the handle and pending record markers */
    bool recorded;
    CUstream stream;            /* the capture, holding a stream reference */
    uint64_t seq;
    uint64_t generation;        /* counts records: a marker stamps only its own */
    struct timespec when;       /* completion time of the latest record */
    emu_capture *in_capture;    /* last recorded in this capture sequence, or NULL */
    emu_nodes capture_nodes;    /* ... at this frontier */
};

static CUevent *live;
static size_t nlive, live_cap;

/* ---- lifetime ------------------------------------------------------------ */

static void forget_capture(CUevent ev)
{
    if (ev->in_capture)
        emu_capture_unref(ev->in_capture);
    ev->in_capture = NULL;
    emu_nodes_clear(&ev->capture_nodes);
}

static void event_unref(CUevent ev)
{
    if (--ev->refs > 0)
        return;
    if (ev->stream)
        emu_stream_unref(ev->stream);
    forget_capture(ev);
    free(ev);
}

/* Index of h among the live events, or nlive. */
static size_t live_index(CUevent h)
{
    size_t i = 0;
    while (i < nlive && live[i] != h)
        i++;
    return i;
}

static CUresult find_event(CUevent h, CUevent *out)
{
    if (live_index(h) == nlive)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = h;
    return CUDA_SUCCESS;
}

/* Drops the handle's reference to live[i]. */
static void forget(size_t i)
{
    CUevent ev = live[i];
    live[i] = live[--nlive];
    event_unref(ev);
}

void emu_events_drop_ctx(CUcontext ctx)
{
    for (size_t i = nlive; i-- > 0;)
        if (live[i]->ctx == ctx)
            forget(i);
}

/* Event lookup for an API call: initialised and a live handle. */
static CUresult event_get(CUevent h, CUevent *out)
{
    CUresult r = emu_check_init();
    return r == CUDA_SUCCESS ? find_event(h, out) : r;
}

CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    const unsigned int known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    if (!phEvent || (Flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS) {
        CUevent ev = emu_xcalloc(1, sizeof *ev);
        ev->ctx = c;
        ev->flags = Flags;
        ev->refs = 1;
        live = emu_grow(live, nlive, &live_cap, sizeof *live);
        live[nlive++] = ev;
        *phEvent = ev;
    }
    emu_unlock();
    return r;
}

/* Pending records keep the event alive until they complete. */
CUresult CUDAAPI cuEventDestroy_v2(CUevent hEvent)
{
    emu_lock();
    CUevent ev;
    CUresult r = event_get(hEvent, &ev);
    if (r == CUDA_SUCCESS)
        forget(live_index(ev));
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuEventDestroy(CUevent hEvent) EMU_OLD_ABI_OF(cuEventDestroy_v2);

/* ---- recording ----------------------------------------------------------- */

/* A record or a wait: the event operations, also the templates of event
 * record and event wait nodes. */
typedef struct event_op {
    emu_op op;
    CUevent ev;
    uint64_t generation;        /* records: which record this is */
} event_op;

static void capture(CUevent ev, CUstream s, uint64_t seq)
{
    emu_stream_ref(s);
    if (ev->stream)
        emu_stream_unref(ev->stream);
    ev->stream = s;
    ev->seq = seq;
    ev->recorded = true;
    forget_capture(ev);
}

/* The record is an operation of its stream now: the event captures it. */
static void record_enqueued(emu_op *op)
{
    event_op *r = (event_op *)op;
    r->generation = ++r->ev->generation;
    capture(r->ev, op->stream, op->seq);
}

static void record_retire(emu_op *op)
{
    event_op *r = (event_op *)op;
    if (r->ev->generation == r->generation)
        clock_gettime(CLOCK_MONOTONIC, &r->ev->when);
}

static void event_op_copied(emu_op *op)
{
    ((event_op *)op)->ev->refs++;
}

static void event_op_destroy(emu_op *op)
{
    event_unref(((event_op *)op)->ev);
}

static const emu_op_class record_class = {
    .node_type = CU_GRAPH_NODE_TYPE_EVENT_RECORD,
    .enqueued = record_enqueued,
    .retire = record_retire,
    .destroy = event_op_destroy,
    .copied = event_op_copied,
};

static void event_deps(CUevent ev, emu_deps *d)
{
    if (ev->recorded)
        emu_deps_add(d, ev->stream, ev->seq);
}

/* A wait depends on what the event captures when it is enqueued. */
static void wait_enqueued(emu_op *op)
{
    event_deps(((event_op *)op)->ev, &op->deps);
}

static const emu_op_class wait_class = {
    .node_type = CU_GRAPH_NODE_TYPE_WAIT_EVENT,
    .enqueued = wait_enqueued,
    .destroy = event_op_destroy,
    .copied = event_op_copied,
};

static emu_op *event_op_new(CUevent ev, bool record)
{
    event_op *op = emu_op_new(record ? &record_class : &wait_class, sizeof *op);
    op->ev = ev;
    ev->refs++;
    return &op->op;
}

CUresult emu_event_node_op(CUevent h, bool record, emu_op **out)
{
    CUevent ev;
    CUresult r = find_event(h, &ev);
    if (r == CUDA_SUCCESS)
        *out = event_op_new(ev, record);
    return r;
}

/* "The event supplied must not be an interprocess or interop event. The
 * event must disable timing", and belong to the launch's context. */
CUresult emu_launch_event_op(CUevent h, CUstream s, emu_op **out)
{
    CUevent ev;
    CUresult r = find_event(h, &ev);
    if (r == CUDA_SUCCESS && ev->ctx != s->ctx)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS && (!(ev->flags & CU_EVENT_DISABLE_TIMING) || (ev->flags & CU_EVENT_INTERPROCESS)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *out = event_op_new(ev, true);
    return r;
}

CUevent emu_event_op_event(const emu_op *op)
{
    return ((const event_op *)op)->ev;
}

/* A record on a capturing stream: the event now stands for the capture's
 * frontier (or, EXTERNAL, the capture gets an event record node). */
static CUresult record_in_capture(CUevent ev, CUstream s, unsigned int flags)
{
    uint64_t seq;
    if (flags == CU_EVENT_RECORD_EXTERNAL)
        return emu_submit(s, event_op_new(ev, true), &seq);
    emu_capture *cap = emu_capture_of(s);
    emu_capture_ref(cap);
    forget_capture(ev);
    ev->in_capture = cap;
    emu_capture_frontier(s, &ev->capture_nodes);
    return CUDA_SUCCESS;
}

static CUresult event_record(CUevent h, CUstream hs, unsigned int flags, emu_null_stream null_means)
{
    if (flags != CU_EVENT_RECORD_DEFAULT && flags != CU_EVENT_RECORD_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUevent ev;
    CUstream s;
    CUresult r = event_get(h, &ev);
    if (r == CUDA_SUCCESS)
        r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS && s->ctx != ev->ctx)
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_enqueue(s);
    if (r == CUDA_SUCCESS && emu_capturing(s)) {
        r = record_in_capture(ev, s, flags);
    } else if (r == CUDA_SUCCESS && flags == CU_EVENT_RECORD_EXTERNAL) {
        r = CUDA_ERROR_INVALID_VALUE;           /* only valid during stream capture */
    } else if (r == CUDA_SUCCESS) {
        uint64_t seq;
        r = emu_submit(s, event_op_new(ev, true), &seq);
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuEventRecord, cuEventRecord_ptsz,
                     (CUevent hEvent, CUstream hStream),
                     event_record, hEvent, hStream, CU_EVENT_RECORD_DEFAULT)

EMU_NULL_STREAM_ABIS(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz,
                     (CUevent hEvent, CUstream hStream, unsigned int flags),
                     event_record, hEvent, hStream, flags)

/* ---- completion ---------------------------------------------------------- */

static bool event_done(CUevent ev)
{
    return !ev->recorded || ev->stream->completed >= ev->seq;
}

/* The host may not look at an event last recorded in a capture; doing so
 * during the capture invalidates it. */
static CUresult not_captured(CUevent ev)
{
    if (!ev->in_capture)
        return CUDA_SUCCESS;
    emu_capture_invalidate(ev->in_capture);
    return CUDA_ERROR_CAPTURED_EVENT;
}

CUresult CUDAAPI cuEventQuery(CUevent hEvent)
{
    emu_lock();
    CUevent ev;
    CUresult r = event_get(hEvent, &ev);
    if (r == CUDA_SUCCESS)
        r = not_captured(ev);
    if (r == CUDA_SUCCESS && !event_done(ev))
        r = CUDA_ERROR_NOT_READY;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent)
{
    emu_lock();
    CUevent ev;
    CUresult r = event_get(hEvent, &ev);
    if (r == CUDA_SUCCESS)
        r = not_captured(ev);
    if (r == CUDA_SUCCESS) {
        emu_deps d = { 0 };
        event_deps(ev, &d);
        emu_host_wait(&d);
        emu_deps_clear(&d);
    }
    emu_unlock();
    return r;
}

static double ms_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

CUresult CUDAAPI cuEventElapsedTime_v2(float *ms, CUevent hStart, CUevent hEnd)
{
    if (!ms)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUevent a, b;
    CUresult r = event_get(hStart, &a);
    if (r == CUDA_SUCCESS)
        r = event_get(hEnd, &b);
    if (r == CUDA_SUCCESS)
        r = not_captured(a);
    if (r == CUDA_SUCCESS)
        r = not_captured(b);
    if (r == CUDA_SUCCESS && (!a->recorded || !b->recorded ||
                              ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING)))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS && (!event_done(a) || !event_done(b)))
        r = CUDA_ERROR_NOT_READY;
    if (r == CUDA_SUCCESS)
        *ms = (float)ms_between(&a->when, &b->when);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
    EMU_OLD_ABI_OF(cuEventElapsedTime_v2);

/* ---- cross-stream waits -------------------------------------------------- */

/* A wait on a capturing stream, or for an event recorded in a capture. */
static CUresult wait_in_capture(CUstream s, CUevent ev, unsigned int flags)
{
    uint64_t seq;
    if (ev->in_capture) {
        if (!emu_capture_active(ev->in_capture))
            return CUDA_ERROR_CAPTURED_EVENT;
        return emu_capture_join(s, ev->in_capture, &ev->capture_nodes);
    }
    if (flags == CU_EVENT_WAIT_EXTERNAL)
        return emu_submit(s, event_op_new(ev, false), &seq);
    if (!ev->recorded)
        return CUDA_SUCCESS;                    /* nothing to wait for */
    /* Only in-stream order may cross the boundary of a capture. */
    return emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_ISOLATION);
}

static CUresult stream_wait_event(CUstream hs, CUevent h, unsigned int flags, emu_null_stream null_means)
{
    if (flags != CU_EVENT_WAIT_DEFAULT && flags != CU_EVENT_WAIT_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUstream s;
    CUevent ev;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS)
        r = find_event(h, &ev);
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_enqueue(s);
    if (r == CUDA_SUCCESS && (emu_capturing(s) || ev->in_capture)) {
        r = wait_in_capture(s, ev, flags);
    } else if (r == CUDA_SUCCESS && flags == CU_EVENT_WAIT_EXTERNAL) {
        r = CUDA_ERROR_INVALID_VALUE;           /* only valid during stream capture */
    } else if (r == CUDA_SUCCESS && !event_done(ev)) {
        uint64_t seq;
        r = emu_submit(s, event_op_new(ev, false), &seq);
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamWaitEvent, cuStreamWaitEvent_ptsz,
                     (CUstream hStream, CUevent hEvent, unsigned int Flags),
                     stream_wait_event, hStream, hEvent, Flags)
