/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the event family: a record captures its stream's work; a
 * successful synchronize or query shows the host that work complete. */
#include "config.h"

#include "life/life.h"
#include "model/model.h"
#include "model/sync.h"
#include "preload/shim.h"

#define EVENT_RECORD(symbol, per_thread, PARAMS, ...)               \
    SG_CUDA_SHIM(symbol, PARAMS)                                       \
    {                                                               \
        SG_IN_ORDER();                                              \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);               \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed()) \
            sg_note_event_record(e, h, per_thread);                 \
        return r;                                                   \
    }

EVENT_RECORD(cuEventRecord, 0, (CUevent e, CUstream h), e, h)
EVENT_RECORD(cuEventRecord_ptsz, 1, (CUevent e, CUstream h), e, h)
EVENT_RECORD(cuEventRecordWithFlags, 0, (CUevent e, CUstream h, unsigned int flags), e, h, flags)
EVENT_RECORD(cuEventRecordWithFlags_ptsz, 1, (CUevent e, CUstream h, unsigned int flags), e, h,
             flags)

#define EVENT_OBSERVER(symbol, api)                             \
    SG_CUDA_SHIM(symbol, (CUevent e))                               \
    {                                                           \
        if (!SG_ENTER() || !sg_observe_needed())                \
            return SG_FORWARD(symbol, e);                       \
        struct sg_vc seen = { 0 };                              \
        struct sg_sync_site site = SG_SYNC_SITE(api, SG_SYNC_EVENT, e); \
        sg_snapshot_event(e, &seen);                            \
        CUresult r = SG_FORWARD(symbol, e);                     \
        sg_observe_if(r == CUDA_SUCCESS, &seen, &site);         \
        return r;                                               \
    }

EVENT_OBSERVER(cuEventSynchronize, "cuEventSynchronize")
EVENT_OBSERVER(cuEventQuery, "cuEventQuery")

/* A successful elapsed time means both events completed (an incomplete
 * one answers CUDA_ERROR_NOT_READY): the host has seen what each stands
 * for. */
#undef cuEventElapsedTime
#define EVENT_ELAPSED(symbol)                                                  \
    SG_CUDA_SHIM(symbol, (float *ms, CUevent start, CUevent end))              \
    {                                                                          \
        if (!SG_ENTER() || !sg_observe_needed())                               \
            return SG_FORWARD(symbol, ms, start, end);                         \
        struct sg_vc seen = { 0 }, other = { 0 };                              \
        struct sg_sync_site site = SG_SYNC_SITE("cuEventElapsedTime", SG_SYNC_EVENT, end); \
        sg_snapshot_event(start, &seen);                                       \
        sg_snapshot_event(end, &other);                                        \
        sg_vc_join(&seen, &other);                                             \
        sg_vc_free(&other);                                                    \
        CUresult r = SG_FORWARD(symbol, ms, start, end);                       \
        sg_observe_if(r == CUDA_SUCCESS, &seen, &site);                        \
        return r;                                                              \
    }

EVENT_ELAPSED(cuEventElapsedTime)
EVENT_ELAPSED(cuEventElapsedTime_v2)

SG_CUDA_SHIM(cuEventDestroy_v2, (CUevent e))
{
    CUresult r = SG_FORWARD(cuEventDestroy_v2, e);
    if (r == CUDA_SUCCESS && SG_ENTER()) {
        sg_lock(&sg_model_lock);
        sg_event_destroyed(e);
        sg_unlock(&sg_model_lock);
    }
    return r;
}
