/* SPDX-License-Identifier: Apache-2.0 */
/* stream.c - stream objects: the legacy default stream of each context, the
 * per-thread default streams, created streams; resolving stream handles;
 * the stream API that is not about a particular kind of work.
 */
#include "emu.h"

#include <stdlib.h>

static unsigned long long next_stream_id = 1;

/* Handles of the streams made by cuStreamCreate* and not destroyed yet. */
static CUstream *live;
static size_t nlive, live_cap;

static void live_add(CUstream s)
{
    live = emu_grow(live, nlive, &live_cap, sizeof *live);
    live[nlive++] = s;
}

static bool live_remove(CUstream s)
{
    for (size_t i = 0; i < nlive; i++) {
        if (live[i] == s) {
            live[i] = live[--nlive];
            return true;
        }
    }
    return false;
}

/* ---- lifetime ------------------------------------------------------------ */

CUstream emu_stream_new(CUcontext ctx, emu_stream_kind kind, unsigned int flags, int priority)
{
    CUstream s = emu_xcalloc(1, sizeof *s);
    s->ctx = ctx;
    s->kind = kind;
    s->flags = flags;
    s->priority = priority;
    s->id = next_stream_id++;
    s->refs = 1;                /* the owner: user, context or thread */
    s->next = ctx->streams;
    ctx->streams = s;
    if (kind == EMU_STREAM_USER)
        live_add(s);
    return s;
}

void emu_stream_ref(CUstream s)
{
    s->refs++;
}

static void stream_free(CUstream s)
{
    CUstream *p = &s->ctx->streams;
    while (*p != s)
        p = &(*p)->next;
    *p = s->next;
    free(s);
}

void emu_stream_unref(CUstream s)
{
    if (--s->refs == 0)
        stream_free(s);         /* the worker held a ref while work was queued */
}

void emu_stream_kill(CUstream s)
{
    if (s->kind == EMU_STREAM_USER)
        live_remove(s);
    s->dying = true;
    emu_broadcast();            /* an idle worker notices and exits */
    emu_stream_unref(s);
}

bool emu_stream_blocking(CUstream s)
{
    return s->kind != EMU_STREAM_USER || !(s->flags & CU_STREAM_NON_BLOCKING);
}

void emu_stream_capture(CUstream s, emu_deps *out)
{
    emu_deps_add(out, s, s->enqueued);
    if (s->kind != EMU_STREAM_LEGACY)
        return;
    /* Synchronising with the legacy stream is synchronising with an
     * operation enqueued on it now, which would wait for every blocking
     * stream. */
    for (CUstream t = s->ctx->streams; t; t = t->next)
        if (emu_stream_blocking(t))
            emu_deps_add(out, t, t->enqueued);
}

/* ---- per-thread default streams ------------------------------------------ */

typedef struct per_thread {
    CUcontext ctx;
    unsigned int epoch;         /* ctx->epoch when the stream was made */
    CUstream stream;            /* holds a reference of its own */
    struct per_thread *next;
} per_thread;

static __thread per_thread *tls_streams;
static pthread_key_t ptds_key;
static pthread_once_t ptds_once = PTHREAD_ONCE_INIT;

/* At thread exit the thread's default streams go away like destroyed
 * streams: queued work still completes. */
static void per_thread_exit(void *p)
{
    emu_lock();
    for (per_thread *e = p, *next; e; e = next) {
        next = e->next;
        if (!e->stream->dying)
            emu_stream_kill(e->stream);
        emu_stream_unref(e->stream);
        free(e);
    }
    emu_unlock();
}

static void ptds_key_init(void)
{
    pthread_key_create(&ptds_key, per_thread_exit);
}

static CUstream per_thread_stream(CUcontext c)
{
    per_thread *e = tls_streams;
    while (e && e->ctx != c)
        e = e->next;
    if (e && e->epoch == c->epoch)
        return e->stream;
    if (e) {
        emu_stream_unref(e->stream);    /* killed by a context teardown */
    } else {
        pthread_once(&ptds_once, ptds_key_init);
        e = emu_xcalloc(1, sizeof *e);
        e->ctx = c;
        e->next = tls_streams;
        tls_streams = e;
        pthread_setspecific(ptds_key, tls_streams);
    }
    e->epoch = c->epoch;
    e->stream = emu_stream_new(c, EMU_STREAM_PER_THREAD, 0, 0);
    emu_stream_ref(e->stream);
    return e->stream;
}

/* ---- handles ------------------------------------------------------------- */

static CUresult find_live(CUstream h, CUstream *out)
{
    for (size_t i = 0; i < nlive; i++) {
        if (live[i] == h) {
            *out = h;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_HANDLE;
}

CUresult emu_stream_get(CUstream h, emu_null_stream null_means, CUstream *out)
{
    CUresult r = emu_check_init();
    if (r != CUDA_SUCCESS)
        return r;
    if (!h)
        h = null_means == EMU_NULL_PER_THREAD ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
    if (h != CU_STREAM_LEGACY && h != CU_STREAM_PER_THREAD)
        return find_live(h, out);
    CUcontext c;
    if ((r = emu_ctx_current(&c)) != CUDA_SUCCESS)
        return r;
    *out = h == CU_STREAM_LEGACY ? c->legacy : per_thread_stream(c);
    return CUDA_SUCCESS;
}

/* ---- creation and destruction -------------------------------------------- */

static int clamp_priority(int p)
{
    if (p > EMU_LEAST_PRIORITY)
        return EMU_LEAST_PRIORITY;
    return p < EMU_GREATEST_PRIORITY ? EMU_GREATEST_PRIORITY : p;
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    if (!phStream || (flags & ~(unsigned int)CU_STREAM_NON_BLOCKING))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS)
        *phStream = emu_stream_new(c, EMU_STREAM_USER, flags, clamp_priority(priority));
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    return cuStreamCreateWithPriority(phStream, Flags, EMU_LEAST_PRIORITY);
}

CUresult CUDAAPI cuStreamDestroy_v2(CUstream hStream)
{
    emu_lock();
    CUresult r = emu_check_init();
    CUstream s = NULL;
    if (r == CUDA_SUCCESS)
        r = find_live(hStream, &s);     /* default streams cannot be destroyed */
    if (r == CUDA_SUCCESS)
        emu_stream_kill(s);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuStreamDestroy(CUstream hStream) EMU_OLD_ABI_OF(cuStreamDestroy_v2);

/* ---- synchronisation ----------------------------------------------------- */

/* cuStreamSynchronize and cuStreamQuery look at the same work (the
 * stream's queue and, for the legacy stream, those of the blocking streams
 * of its context): one waits for it, the other only asks whether it is
 * done. */
static CUresult stream_settle(CUstream h, bool wait, emu_null_stream null_means)
{
    emu_lock();
    CUstream s = NULL;
    CUresult r = emu_stream_get(h, null_means, &s);
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_sync(s);
    if (r == CUDA_SUCCESS) {
        emu_deps d = { 0 };
        emu_stream_capture(s, &d);
        if (wait)
            emu_host_wait(&d);
        else if (!emu_deps_done(&d))
            r = CUDA_ERROR_NOT_READY;
        emu_deps_clear(&d);
    }
    CUcontext ctx = s ? s->ctx : NULL;
    emu_unlock();
    if (r == CUDA_SUCCESS && wait)
        emu_san_synchronized(ctx, h, s, false);
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamSynchronize, cuStreamSynchronize_ptsz, (CUstream hStream),
                     stream_settle, hStream, true)
EMU_NULL_STREAM_ABIS(cuStreamQuery, cuStreamQuery_ptsz, (CUstream hStream),
                     stream_settle, hStream, false)

/* ---- properties ---------------------------------------------------------- */

typedef enum { PROP_FLAGS, PROP_PRIORITY, PROP_CTX, PROP_ID, PROP_DEVICE } stream_prop;

static CUresult stream_prop_get(CUstream h, stream_prop what, void *out, emu_null_stream null_means)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUstream s;
    CUresult r = emu_stream_get(h, null_means, &s);
    if (r == CUDA_SUCCESS) {
        switch (what) {
        case PROP_FLAGS:    *(unsigned int *)out = s->flags; break;
        case PROP_PRIORITY: *(int *)out = s->priority; break;
        case PROP_CTX:      *(CUcontext *)out = s->ctx; break;
        case PROP_ID:       *(unsigned long long *)out = s->id; break;
        case PROP_DEVICE:   *(CUdevice *)out = s->ctx->dev; break;
        }
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamGetFlags, cuStreamGetFlags_ptsz, (CUstream hStream, unsigned int *flags),
                     stream_prop_get, hStream, PROP_FLAGS, flags)
EMU_NULL_STREAM_ABIS(cuStreamGetPriority, cuStreamGetPriority_ptsz, (CUstream hStream, int *priority),
                     stream_prop_get, hStream, PROP_PRIORITY, priority)
EMU_NULL_STREAM_ABIS(cuStreamGetId, cuStreamGetId_ptsz, (CUstream hStream, unsigned long long *streamId),
                     stream_prop_get, hStream, PROP_ID, streamId)
EMU_NULL_STREAM_ABIS(cuStreamGetDevice, cuStreamGetDevice_ptsz, (CUstream hStream, CUdevice *device),
                     stream_prop_get, hStream, PROP_DEVICE, device)
EMU_NULL_STREAM_ABIS(cuStreamGetCtx, cuStreamGetCtx_ptsz, (CUstream hStream, CUcontext *pctx),
                     stream_prop_get, hStream, PROP_CTX, pctx)

/* There are no green contexts here: *pGreenCtx is always NULL. */
static CUresult stream_get_ctx_v2(CUstream h, CUcontext *pCtx, CUgreenCtx *pGreenCtx,
                                  emu_null_stream null_means)
{
    if (!pCtx && !pGreenCtx)
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext c;
    CUresult r = stream_prop_get(h, PROP_CTX, &c, null_means);
    if (r == CUDA_SUCCESS && pCtx)
        *pCtx = c;
    if (r == CUDA_SUCCESS && pGreenCtx)
        *pGreenCtx = NULL;
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamGetCtx_v2, cuStreamGetCtx_v2_ptsz,
                     (CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx),
                     stream_get_ctx_v2, hStream, pCtx, pGreenCtx)
