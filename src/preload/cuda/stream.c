/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the stream family: creation tells the model a stream's flags;
 * synchronize and a successful query tell it what the host has now
 * observed complete; waiting for an event orders the stream after it. */
#include "config.h"

#include "driver/driver.h"
#include "life/life.h"
#include "model/model.h"
#include "model/sync.h"
#include "preload/shim.h"

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

SG_CUDA_SHIM(cuStreamCreate, (CUstream *ph, unsigned int flags))
{
    return created(SG_FORWARD(cuStreamCreate, ph, flags), ph, flags);
}

SG_CUDA_SHIM(cuStreamCreateWithPriority, (CUstream *ph, unsigned int flags, int priority))
{
    return created(SG_FORWARD(cuStreamCreateWithPriority, ph, flags, priority), ph, flags);
}

SG_CUDA_SHIM(cuStreamDestroy_v2, (CUstream h))
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
    SG_CUDA_SHIM(symbol, (CUstream h))                              \
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
    SG_CUDA_SHIM(symbol, (CUstream h, CUevent e, unsigned int flags)) \
    {                                                           \
        SG_IN_ORDER();                                          \
        CUresult r = SG_FORWARD(symbol, h, e, flags);           \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed()) \
            sg_note_stream_wait(h, per_thread, e);              \
        return r;                                               \
    }

STREAM_WAIT_EVENT(cuStreamWaitEvent, 0)
STREAM_WAIT_EVENT(cuStreamWaitEvent_ptsz, 1)
