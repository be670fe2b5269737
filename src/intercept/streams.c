/* Shims of the stream and context family: creation tells the model a
 * stream's flags; synchronize, a successful query and context synchronize
 * tell it what the host has now observed complete. */
#include "config.h"

#include "syncguard/intercept.h"
#include "syncguard/model.h"
#include "syncguard/observe.h"

static CUresult created(CUresult r, CUstream *ph, unsigned int flags)
{
    if (r == CUDA_SUCCESS && SG_ENTER()) {
        CUcontext ctx = sg_current_ctx();
        sg_lock(&sg_model_lock);
        sg_stream_created(*ph, flags, ctx);
        sg_unlock(&sg_model_lock);
    }
    return r;
}

SG_WRAPPER(cuStreamCreate)(CUstream *ph, unsigned int flags)
{
    return created(SG_FORWARD(cuStreamCreate, ph, flags), ph, flags);
}

SG_WRAPPER(cuStreamCreateWithPriority)(CUstream *ph, unsigned int flags, int priority)
{
    return created(SG_FORWARD(cuStreamCreateWithPriority, ph, flags, priority), ph, flags);
}

SG_WRAPPER(cuStreamDestroy_v2)(CUstream h)
{
    CUresult r = SG_FORWARD(cuStreamDestroy_v2, h);
    if (r == CUDA_SUCCESS && SG_ENTER()) {
        sg_lock(&sg_model_lock);
        sg_stream_destroyed(h);
        sg_unlock(&sg_model_lock);
    }
    return r;
}

/* Synchronize and query share one shape: snapshot, call, observe. */
#define STREAM_OBSERVER(symbol, per_thread, api)                \
    SG_WRAPPER(symbol)(CUstream h)                              \
    {                                                           \
        if (!SG_ENTER() || !sg_observe_needed())                \
            return SG_FORWARD(symbol, h);                       \
        struct sg_vc seen = { 0 };                              \
        struct sg_sync_site site = SG_SYNC_SITE(api, SG_SYNC_STREAM, h); \
        sg_snapshot_stream(h, per_thread, &seen, &site.stream); \
        CUresult r = SG_FORWARD(symbol, h);                     \
        sg_observe_if(r == CUDA_SUCCESS, &seen, &site);         \
        return r;                                               \
    }

STREAM_OBSERVER(cuStreamSynchronize, 0, "cuStreamSynchronize")
STREAM_OBSERVER(cuStreamSynchronize_ptsz, 1, "cuStreamSynchronize")
STREAM_OBSERVER(cuStreamQuery, 0, "cuStreamQuery")
STREAM_OBSERVER(cuStreamQuery_ptsz, 1, "cuStreamQuery")

#define STREAM_WAIT_EVENT(symbol, per_thread)                   \
    SG_WRAPPER(symbol)(CUstream h, CUevent e, unsigned int flags) \
    {                                                           \
        CUresult r = SG_FORWARD(symbol, h, e, flags);           \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed()) \
            sg_note_stream_wait(h, per_thread, e);              \
        return r;                                               \
    }

STREAM_WAIT_EVENT(cuStreamWaitEvent, 0)
STREAM_WAIT_EVENT(cuStreamWaitEvent_ptsz, 1)

void sg_event_pool_forget_ctx(CUcontext ctx);

/* The host is about to wait for all work of ctx (NULL: of every context). */
static void ctx_wait_begin(struct sg_sync_op *op, const char *api, CUcontext ctx)
{
    struct sg_sync_site site = SG_SYNC_SITE(api, SG_SYNC_CONTEXT, ctx);
    op->site = site;
    op->covered = (struct sg_vc){ 0 };
    sg_snapshot_ctx(ctx, &op->covered);
}

SG_WRAPPER(cuCtxSynchronize)(void)
{
    if (!SG_ENTER() || !sg_observe_needed())
        return SG_FORWARD(cuCtxSynchronize);
    struct sg_sync_op op;
    ctx_wait_begin(&op, "cuCtxSynchronize", sg_current_ctx());
    CUresult r = SG_FORWARD(cuCtxSynchronize);
    sg_sync_op_end(&op, r == CUDA_SUCCESS);
    return r;
}

SG_WRAPPER(cuCtxSynchronize_v2)(CUcontext ctx)
{
    if (!SG_ENTER() || !sg_observe_needed())
        return SG_FORWARD(cuCtxSynchronize_v2, ctx);
    struct sg_sync_op op;
    ctx_wait_begin(&op, "cuCtxSynchronize", ctx ? ctx : sg_current_ctx());
    CUresult r = SG_FORWARD(cuCtxSynchronize_v2, ctx);
    sg_sync_op_end(&op, r == CUDA_SUCCESS);
    return r;
}

/* Destroying a context waits for its work: every copy in it is complete. */
SG_WRAPPER(cuCtxDestroy_v2)(CUcontext ctx)
{
    if (!SG_ENTER())
        return SG_FORWARD(cuCtxDestroy_v2, ctx);
    int observe = sg_observe_needed(); /* else there is nothing to release */
    struct sg_sync_op op;
    if (observe)
        ctx_wait_begin(&op, "cuCtxDestroy", ctx);
    CUresult r = SG_FORWARD(cuCtxDestroy_v2, ctx);
    if (observe)
        sg_sync_op_end(&op, r == CUDA_SUCCESS);
    if (r == CUDA_SUCCESS)
        sg_event_pool_forget_ctx(ctx);
    return r;
}

/* A primary context reset (cudaDeviceReset) likewise. Which context is the
 * device's is not tracked, so every context's work counts as complete: a
 * multi-device program may then miss a race, never get a false one. */
SG_WRAPPER(cuDevicePrimaryCtxReset_v2)(CUdevice dev)
{
    if (!SG_ENTER())
        return SG_FORWARD(cuDevicePrimaryCtxReset_v2, dev);
    int observe = sg_observe_needed(); /* else there is nothing to release */
    struct sg_sync_op op;
    CUcontext ctx = sg_current_ctx();
    if (observe)
        ctx_wait_begin(&op, "cuDevicePrimaryCtxReset", NULL);
    CUresult r = SG_FORWARD(cuDevicePrimaryCtxReset_v2, dev);
    if (observe)
        sg_sync_op_end(&op, r == CUDA_SUCCESS);
    if (r == CUDA_SUCCESS && ctx)
        sg_event_pool_forget_ctx(ctx);
    return r;
}
