/* SPDX-License-Identifier: Apache-2.0 */
/* The driver call a thread is inside (model/incall.h). */
#include "config.h"

#include "driver/driver.h"
#include "model/incall.h"
#include "model/model.h"

SG_TLS const struct sg_driver_call *sg_driver_call_now;

/* The legacy and per-thread streams are the current context's: asked here,
 * in normal context, not in the fault handler (which would call the driver
 * from inside the driver). Only while pinned memory exists can a fault
 * need it. */
static int names_default_stream(CUstream s)
{
    return s == NULL || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD;
}

const struct sg_driver_call *sg_driver_call_enter(struct sg_driver_call *call)
{
    const struct sg_driver_call *outer = sg_driver_call_now;
    if (names_default_stream(call->stream) && sg_pinned_any())
        call->ctx = sg_current_ctx();
    sg_driver_call_now = call;
    return outer;
}

int sg_driver_call_follows(const struct sg_driver_call *call, const struct sg_copy *c)
{
    return sg_stream_next_covers(call->stream, call->per_thread, call->ctx, c->stream.idx, c->seq);
}
