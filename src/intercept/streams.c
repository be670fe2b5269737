/* Shims of the stream and context family: creation tells the model a
 * stream's flags; synchronize, a successful query and context synchronize
 * tell it what the host has now observed complete. */
#include "config.h"

#include "syncguard/intercept.h"
#include "syncguard/model.h"
#include "syncguard/observe.h"

SG_WRAPPER(cuStreamCreate)(CUstream *ph, unsigned int flags)
{
    CUresult r = SG_FORWARD(cuStreamCreate, ph, flags);
    if (r == CUDA_SUCCESS && SG_ENTER()) {
        CUcontext ctx = sg_current_ctx();
        sg_lock(&sg_model_lock);
        sg_stream_created(*ph, flags, ctx);
        sg_unlock(&sg_model_lock);
    }
    return r;
}

SG_WRAPPER(cuStreamCreateWithPriority)(CUstream *ph, unsigned int flags, int priority)
{
    CUresult r = SG_FORWARD(cuStreamCreateWithPriority, ph, flags, priority);
    if (r == CUDA_SUCCESS && SG_ENTER()) {
        CUcontext ctx = sg_current_ctx();
        sg_lock(&sg_model_lock);
        sg_stream_created(*ph, flags, ctx);
        sg_unlock(&sg_model_lock);
    }
    return r;
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
#define STREAM_OBSERVER(symbol, per_thread)                     \
    SG_WRAPPER(symbol)(CUstream h)                              \
    {                                                           \
        if (!SG_ENTER() || !sg_observe_needed())                \
            return SG_FORWARD(symbol, h);                       \
        struct sg_vc seen = { 0 };                              \
        sg_snapshot_stream(h, per_thread, &seen);               \
        CUresult r = SG_FORWARD(symbol, h);                     \
        sg_observe_if(r == CUDA_SUCCESS, &seen);                \
        return r;                                               \
    }

STREAM_OBSERVER(cuStreamSynchronize, 0)
STREAM_OBSERVER(cuStreamSynchronize_ptsz, 1)
STREAM_OBSERVER(cuStreamQuery, 0)
STREAM_OBSERVER(cuStreamQuery_ptsz, 1)

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

SG_WRAPPER(cuCtxSynchronize_v2)(CUcontext ctx)
{
    if (!SG_ENTER() || !sg_observe_needed())
        return SG_FORWARD(cuCtxSynchronize_v2, ctx);
    struct sg_vc seen = { 0 };
    sg_snapshot_ctx(ctx ? ctx : sg_current_ctx(), &seen);
    CUresult r = SG_FORWARD(cuCtxSynchronize_v2, ctx);
    sg_observe_if(r == CUDA_SUCCESS, &seen);
    return r;
}

SG_WRAPPER(cuCtxSynchronize)(void)
{
    if (!SG_ENTER() || !sg_observe_needed())
        return SG_FORWARD(cuCtxSynchronize);
    struct sg_vc seen = { 0 };
    sg_snapshot_current_ctx(&seen);
    CUresult r = SG_FORWARD(cuCtxSynchronize);
    sg_observe_if(r == CUDA_SUCCESS, &seen);
    return r;
}
