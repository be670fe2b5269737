/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the context family: context synchronize, destroy and primary
 * context reset show the host that the context's work is complete. */
#include "config.h"

#include "driver/driver.h"
#include "driver/eventpool.h"
#include "life/life.h"
#include "model/sync.h"
#include "preload/shim.h"

/* The host is about to wait for all work of ctx (NULL: of every context). */
static void ctx_wait_begin(struct sg_sync_op *op, const char *api, CUcontext ctx)
{
    struct sg_sync_site site = SG_SYNC_SITE(api, SG_SYNC_CONTEXT, ctx);
    op->site = site;
    op->covered = (struct sg_vc){ 0 };
    sg_snapshot_ctx(ctx, &op->covered);
}

SG_CUDA_SHIM(cuCtxSynchronize, (void))
{
    if (!SG_ENTER() || !sg_observe_needed())
        return SG_FORWARD(cuCtxSynchronize);
    struct sg_sync_op op;
    ctx_wait_begin(&op, "cuCtxSynchronize", sg_current_ctx());
    CUresult r = SG_FORWARD(cuCtxSynchronize);
    sg_sync_op_end(&op, r == CUDA_SUCCESS);
    return r;
}

SG_CUDA_SHIM(cuCtxSynchronize_v2, (CUcontext ctx))
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
SG_CUDA_SHIM(cuCtxDestroy_v2, (CUcontext ctx))
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

/* A primary context reset (cudaDeviceReset) likewise, for that device's
 * primary context only: "destroy all allocations and reset all state on
 * the primary context"; other devices' and created contexts' work goes on. */
SG_CUDA_SHIM(cuDevicePrimaryCtxReset_v2, (CUdevice dev))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuDevicePrimaryCtxReset_v2, dev);
    int observe = sg_observe_needed(); /* else there is nothing to release */
    struct sg_sync_op op;
    CUcontext ctx = sg_primary_ctx_if_active(dev); /* NULL: inactive, no work */
    if (observe && ctx)
        ctx_wait_begin(&op, "cuDevicePrimaryCtxReset", ctx);
    CUresult r = SG_FORWARD(cuDevicePrimaryCtxReset_v2, dev);
    if (observe && ctx)
        sg_sync_op_end(&op, r == CUDA_SUCCESS);
    if (r == CUDA_SUCCESS && ctx)
        sg_event_pool_forget_ctx(ctx);
    return r;
}
