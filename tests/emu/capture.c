/* SPDX-License-Identifier: Apache-2.0 */
/* capture.c - stream capture: cuStreamBeginCapture .. cuStreamEndCapture.
 *
 * While a stream takes part in a capture sequence, the work submitted to
 * it is not executed but recorded as nodes of the capture's graph, each
 * depending on the stream's frontier (its previous node, or what it joined
 * through an event wait), and becoming the new frontier.  Other streams
 * join a capture by waiting for an event recorded in it (a fork) and must
 * be joined back into the origin stream before the capture ends.
 *
 * The rules of the CUDA programming guide ("Prohibited and unhandled
 * operations"): synchronising with or querying a capturing stream, its
 * context, or an event recorded in a capture is not allowed; while a
 * blocking stream captures, the legacy stream cannot be used; waiting for
 * work outside the capture is not allowed (only in-stream order crosses
 * the boundary).  Such an operation fails and invalidates the capture,
 * which then ends without a graph.  The restrictions of
 * cuThreadExchangeStreamCaptureMode on "potentially unsafe" calls
 * (allocation, synchronous copies outside the capturing stream) are not
 * enforced.
 */
#include "emu.h"

#include <stdlib.h>

struct emu_capture {
    unsigned long long id;
    CUgraph graph;
    CUstream origin;
    CUstreamCaptureMode mode;
    pthread_t thread;           /* that began it */
    bool active;                /* between begin and end */
    bool invalidated;
    int refs;                   /* member streams and events recorded in it */
    CUstream *members;          /* every stream taking part, origin included */
    size_t nmembers, members_cap;
    CUgraphEdgeData *no_edge_data;  /* zeroed, for cuStreamGetCaptureInfo_v3 */
    size_t no_edge_data_n;
};

static unsigned long long next_capture_id = 1;

/* ---- capture sequences and their member streams ---------------------------- */

void emu_capture_ref(emu_capture *cap)
{
    cap->refs++;
}

void emu_capture_unref(emu_capture *cap)
{
    if (--cap->refs > 0 || cap->active)
        return;
    free(cap->members);
    free(cap->no_edge_data);
    free(cap);
}

bool emu_capture_active(const emu_capture *cap)
{
    return cap->active;
}

void emu_capture_invalidate(emu_capture *cap)
{
    if (cap->active)
        cap->invalidated = true;
}

emu_capture *emu_capture_of(CUstream s)
{
    return s->capture;
}

void emu_capture_frontier(CUstream s, emu_nodes *out)
{
    emu_nodes_copy(out, &s->capture_tail);
}

bool emu_capturing(CUstream s)
{
    return s->capture && s->capture->active;
}

static void join(emu_capture *cap, CUstream s, const emu_nodes *frontier)
{
    cap->members = emu_grow(cap->members, cap->nmembers, &cap->members_cap, sizeof *cap->members);
    cap->members[cap->nmembers++] = s;
    emu_stream_ref(s);
    emu_capture_ref(cap);
    s->capture = cap;
    emu_nodes_copy(&s->capture_tail, frontier);
}

/* At the end of the capture every member goes back to normal operation. */
static void release_members(emu_capture *cap)
{
    size_t n = cap->nmembers;
    CUstream *v = cap->members;
    cap->members = NULL;
    cap->nmembers = cap->members_cap = 0;
    for (size_t i = 0; i < n; i++) {
        v[i]->capture = NULL;
        emu_nodes_clear(&v[i]->capture_tail);
        emu_stream_unref(v[i]);
    }
    free(v);
    cap->refs -= (int)n - 1;    /* the last one goes through emu_capture_unref */
    emu_capture_unref(cap);
}

/* ---- what other calls must check ----------------------------------------- */

/* The legacy stream while a blocking stream of its context captures: the
 * implicit dependency would cross into the capture.  Invalidates those
 * captures when `invalidate` says so. */
static bool legacy_implicit(CUstream s, bool invalidate)
{
    if (s->kind != EMU_STREAM_LEGACY)
        return false;
    bool found = false;
    for (CUstream t = s->ctx->streams; t; t = t->next) {
        if (t != s && emu_stream_blocking(t) && emu_capturing(t)) {
            found = true;
            if (invalidate)
                emu_capture_invalidate(t->capture);
        }
    }
    return found;
}

CUresult emu_capture_check_enqueue(CUstream s)
{
    if (legacy_implicit(s, true))
        return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    if (emu_capturing(s) && s->capture->invalidated)
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    return CUDA_SUCCESS;
}

CUresult emu_capture_fail(CUstream s, CUresult err)
{
    if (emu_capturing(s))
        emu_capture_invalidate(s->capture);
    return err;
}

CUresult emu_capture_check_sync(CUstream s)
{
    if (emu_capturing(s))
        return emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    if (legacy_implicit(s, true))
        return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    return CUDA_SUCCESS;
}

CUresult emu_capture_check_ctx_sync(CUcontext c)
{
    CUresult r = CUDA_SUCCESS;
    for (CUstream t = c->streams; t; t = t->next)
        if (emu_capturing(t))
            r = emu_capture_fail(t, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    return r;
}

/* ---- recording work ------------------------------------------------------- */

CUresult emu_capture_add(CUstream s, CUgraphNodeType type, emu_op *tmpl, CUgraph child)
{
    CUgraphNode node;
    CUresult r = emu_graph_add(s->capture->graph, s->capture_tail.v, s->capture_tail.n, type, tmpl, child,
                               &node);
    if (r == CUDA_SUCCESS) {
        s->capture_tail.n = 0;
        emu_nodes_add(&s->capture_tail, node);
    }
    return r;
}

CUresult emu_submit(CUstream s, emu_op *op, uint64_t *seq)
{
    *seq = 0;
    CUresult r = emu_capture_check_enqueue(s);
    if (r != CUDA_SUCCESS) {
        emu_op_discard(op);
        return r;
    }
    if (emu_capturing(s))
        return emu_capture_add(s, op->cls->node_type, op, NULL);
    *seq = emu_enqueue(s, op);
    return CUDA_SUCCESS;
}

CUresult emu_capture_join(CUstream s, emu_capture *cap, const emu_nodes *nodes)
{
    if (cap->invalidated)
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    if (s->kind == EMU_STREAM_LEGACY) {
        emu_capture_invalidate(cap);            /* the legacy stream cannot capture */
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    if (!s->capture) {
        join(cap, s, nodes);                    /* a fork */
        return CUDA_SUCCESS;
    }
    if (s->capture != cap) {
        emu_capture_invalidate(cap);
        emu_capture_invalidate(s->capture);
        return CUDA_ERROR_STREAM_CAPTURE_MERGE;
    }
    for (size_t i = 0; i < nodes->n; i++)       /* a join */
        emu_nodes_add(&s->capture_tail, nodes->v[i]);
    return CUDA_SUCCESS;
}

/* ---- the API --------------------------------------------------------------- */

static CUresult begin_capture(CUstream hs, CUstreamCaptureMode mode, emu_null_stream null_means)
{
    if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
        mode != CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUstream s;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS && s->kind == EMU_STREAM_LEGACY)
        r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (r == CUDA_SUCCESS && s->capture)
        r = CUDA_ERROR_ILLEGAL_STATE;           /* already capturing */
    if (r == CUDA_SUCCESS) {
        emu_capture *cap = emu_xcalloc(1, sizeof *cap);
        cap->id = next_capture_id++;
        cap->graph = emu_graph_new(NULL);
        cap->graph->capturing = true;
        cap->origin = s;
        cap->mode = mode;
        cap->thread = pthread_self();
        cap->active = true;
        join(cap, s, &(emu_nodes){ 0 });
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamBeginCapture_v2, cuStreamBeginCapture_v2_ptsz,
                     (CUstream hStream, CUstreamCaptureMode mode),
                     begin_capture, hStream, mode)

/* The CUDA 10.0 ABI: no mode, which is global. */
EMU_NULL_STREAM_ABIS(cuStreamBeginCapture, cuStreamBeginCapture_ptsz,
                     (CUstream hStream),
                     begin_capture, hStream, CU_STREAM_CAPTURE_MODE_GLOBAL)

/* Every stream that forked from the origin must have been joined back:
 * its frontier must be among what the origin's frontier depends on. */
static bool all_joined(const emu_capture *cap)
{
    const emu_nodes *origin = &cap->origin->capture_tail;
    for (size_t i = 0; i < cap->nmembers; i++) {
        const emu_nodes *t = &cap->members[i]->capture_tail;
        for (size_t k = 0; k < t->n; k++)
            if (!emu_nodes_reach(origin, t->v[k]))
                return false;
    }
    return true;
}

static CUresult end_capture(CUstream hs, CUgraph *phGraph, emu_null_stream null_means)
{
    if (!phGraph)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUstream s;
    CUresult r = emu_stream_get(hs, null_means, &s);
    emu_capture *cap = r == CUDA_SUCCESS ? s->capture : NULL;
    if (r == CUDA_SUCCESS && !emu_capturing(s))
        r = CUDA_ERROR_ILLEGAL_STATE;
    if (r == CUDA_SUCCESS && cap->origin != s)
        r = emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
    if (r == CUDA_SUCCESS && cap->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
        !pthread_equal(cap->thread, pthread_self()))
        r = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
    if (r == CUDA_SUCCESS) {
        if (!cap->invalidated && !all_joined(cap)) {
            cap->invalidated = true;
            r = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
        } else if (cap->invalidated) {
            r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        }
        cap->graph->capturing = false;
        if (r == CUDA_SUCCESS) {
            *phGraph = cap->graph;
        } else {
            *phGraph = NULL;
            emu_graph_free(cap->graph);
        }
        cap->graph = NULL;
        cap->active = false;
        release_members(cap);
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamEndCapture, cuStreamEndCapture_ptsz,
                     (CUstream hStream, CUgraph *phGraph),
                     end_capture, hStream, phGraph)

/* What cuStreamIsCapturing and cuStreamGetCaptureInfo report.  The legacy
 * stream "is in an unusable state" while a blocking stream captures:
 * CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, without invalidating anything. */
typedef struct capture_info {
    CUstreamCaptureStatus status;
    cuuint64_t id;
    CUgraph graph;
    const CUgraphNode *deps;
    const CUgraphEdgeData *edges;
    size_t ndeps;
} capture_info;

static CUresult capture_info_get(CUstream hs, emu_null_stream null_means, capture_info *out)
{
    CUstream s;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS && legacy_implicit(s, false))
        r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    if (r != CUDA_SUCCESS)
        return r;
    *out = (capture_info){ CU_STREAM_CAPTURE_STATUS_NONE, 0, NULL, NULL, NULL, 0 };
    emu_capture *cap = emu_capturing(s) ? s->capture : NULL;
    if (cap && cap->invalidated) {
        out->status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
    } else if (cap) {
        out->status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
        out->id = cap->id;
        out->graph = cap->graph;
        out->deps = s->capture_tail.v;
        out->ndeps = s->capture_tail.n;
        if (cap->no_edge_data_n < out->ndeps) {
            free(cap->no_edge_data);
            cap->no_edge_data = emu_xcalloc(out->ndeps, sizeof *cap->no_edge_data);
            cap->no_edge_data_n = out->ndeps;
        }
        out->edges = cap->no_edge_data;
    }
    return CUDA_SUCCESS;
}

/* All three ABIs of cuStreamGetCaptureInfo, and cuStreamIsCapturing, which
 * is the status alone; the data besides the status is valid only for an active
 * capture. */
static CUresult get_capture_info(CUstream hs, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                                 const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *ndeps,
                                 emu_null_stream null_means)
{
    if (!status || (edges && !deps))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    capture_info info;
    CUresult r = capture_info_get(hs, null_means, &info);
    if (r == CUDA_SUCCESS) {
        *status = info.status;
        if (id)
            *id = info.id;
        if (graph)
            *graph = info.graph;
        if (deps)
            *deps = info.deps;
        if (edges)
            *edges = info.edges;
        if (ndeps)
            *ndeps = info.ndeps;
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamIsCapturing, cuStreamIsCapturing_ptsz,
                     (CUstream hStream, CUstreamCaptureStatus *captureStatus),
                     get_capture_info, hStream, captureStatus, NULL, NULL, NULL, NULL, NULL)

EMU_NULL_STREAM_ABIS(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_ptsz,
                     (CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out),
                     get_capture_info, hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL)

EMU_NULL_STREAM_ABIS(cuStreamGetCaptureInfo_v2, cuStreamGetCaptureInfo_v2_ptsz,
                     (CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                      CUgraph *graph_out, const CUgraphNode **dependencies_out, size_t *numDependencies_out),
                     get_capture_info, hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                     numDependencies_out)

EMU_NULL_STREAM_ABIS(cuStreamGetCaptureInfo_v3, cuStreamGetCaptureInfo_v3_ptsz,
                     (CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
                      CUgraph *graph_out, const CUgraphNode **dependencies_out,
                      const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out),
                     get_capture_info, hStream, captureStatus_out, id_out, graph_out, dependencies_out,
                     edgeData_out, numDependencies_out)
