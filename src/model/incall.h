/* SPDX-License-Identifier: Apache-2.0 */
/* The driver call a thread is inside. A copy between host buffers (pinned,
 * mapped, registered: whatever the entry point's nominal direction) is done
 * by the driver itself on the CPU, inside the call, once the stream's
 * earlier work is complete (seen on the H200: XLA's cuMemcpyDtoHAsync from a
 * pinned counter faulted inside libcuda). Such an access is the call's, in
 * the call's stream order, not the program's: the fault handler asks here
 * which call the faulting thread is in and whether a guarded copy is ordered
 * before it. */
#ifndef SG_MODEL_INCALL_H
#define SG_MODEL_INCALL_H

#include <cuda.h>

#include "base/common.h"
#include "model/copies.h"

struct sg_driver_call {
    const char *api;
    CUstream stream;
    int per_thread;
    CUcontext ctx; /* the current context, for the legacy and per-thread streams */
};

/* This thread's innermost call being forwarded to the driver, or NULL. A
 * program's signal handler that runs during the call and enters a shim
 * nests its own. */
extern SG_TLS const struct sg_driver_call *sg_driver_call_now;

/* Marks the thread as inside call; returns the call it was in before. */
const struct sg_driver_call *sg_driver_call_enter(struct sg_driver_call *call);
static inline void sg_driver_call_leave(const struct sg_driver_call *outer)
{
    sg_driver_call_now = outer;
}

/* Forwards a copy or memset to the driver with the thread marked as inside
 * it (api on stream s). Evaluates to the call's CUresult. */
#define SG_FORWARD_IN_CALL(api, s, per_thread, symbol, ...)                                \
    ({                                                                                     \
        struct sg_driver_call call_ = { api, s, per_thread, NULL };                        \
        const struct sg_driver_call *outer_ = sg_driver_call_enter(&call_);                \
        CUresult in_call_r_ = SG_FORWARD(symbol, __VA_ARGS__);                             \
        sg_driver_call_leave(outer_);                                                      \
        in_call_r_;                                                                        \
    })

/* With sg_model_lock held; signal-safe. Whether c's work comes before the
 * call in stream order (same stream and earlier, or waited for through an
 * event or the legacy stream's rules): the driver's access inside the call
 * then follows c, and is no race with it. */
int sg_driver_call_follows(const struct sg_driver_call *call, const struct sg_copy *c)
    SG_REQUIRES(sg_model_lock);

#endif
