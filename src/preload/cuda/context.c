/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the context family: context synchronize, destroy, primary
 * context reset and release show the host that the context's work is
 * complete; teardowns also end what the driver freed with the context. */
#include "config.h"

#include "driver/driver.h"
#include "driver/eventpool.h"
#include "driver/kparams.h"
#include "learn/learn.h"
#include "life/life.h"
#include "model/sync.h"
#include "preload/cuda/memhost.h"
#include "preload/shim.h"

/* The host is about to wait for all work of ctx (NULL: of every context). */
static void ctx_wait_begin(struct sg_sync_op *op, const char *api, CUcontext ctx)
{
    struct sg_sync_site site = SG_SYNC_SITE(api, SG_SYNC_CONTEXT, ctx);
    op->site = site;
    op->covered = (struct sg_vc){ 0 };
    sg_snapshot_ctx(ctx, &op->covered);
}

/* cuInit: where learning (learn/) subscribes to the Compute Sanitizer API,
 * before the driver initializes, and outside the library constructors in
 * which syncguard itself starts: the API's library starts threads of its
 * own there, which must not find syncguard half initialized or the
 * loader's lock taken (GPU run 40: subscribing from the constructor hung
 * every program). */
SG_CUDA_SHIM(cuInit, (unsigned int flags))
{
    if (SG_ENTER())
        sg_learn_init();
    return SG_FORWARD(cuInit, flags);
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

/* A call that may tear a context down (destroy, primary reset, a primary
 * context's last release): the driver completes the context's work first,
 * so the host observes all of it, as by a context synchronize. */
struct teardown {
    CUcontext ctx; /* NULL: nothing to tear down (an inactive primary context) */
    int observe;   /* copies are pending: the call may release some */
    struct sg_sync_op op;
};

static void teardown_begin(struct teardown *t, const char *api, CUcontext ctx)
{
    t->ctx = ctx;
    t->observe = ctx && sg_observe_needed();
    if (t->observe)
        ctx_wait_begin(&t->op, api, ctx);
}

/* After the call; done: the driver tore the context down. Then its work is
 * complete, and what went with it goes here too: syncguard's events of
 * the context, the cached kernel parameter layouts (its modules are
 * unloaded, and their function handles may come back naming other
 * kernels), and its pinned memory, which the driver freed. */
static void teardown_end(struct teardown *t, int done)
{
    if (t->observe)
        sg_sync_op_end(&t->op, done);
    if (!done || !t->ctx)
        return;
    sg_event_pool_forget_ctx(t->ctx);
    sg_kparams_forget();
    sg_memhost_ctx_gone(t->ctx);
}

SG_CUDA_SHIM(cuCtxDestroy_v2, (CUcontext ctx))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuCtxDestroy_v2, ctx);
    struct teardown t;
    teardown_begin(&t, "cuCtxDestroy", ctx);
    CUresult r = SG_FORWARD(cuCtxDestroy_v2, ctx);
    teardown_end(&t, r == CUDA_SUCCESS);
    return r;
}

typedef CUresult(CUDAAPI *primary_call)(CUdevice);

/* A primary context reset (cudaDeviceReset) tears down that device's
 * primary context only, if active: "destroy all allocations and reset all
 * state on the primary context"; other devices' and created contexts' work
 * goes on. A release tears it down when it was the last retain: the
 * context is inactive after it. */
static CUresult primary_teardown(const char *api, CUdevice dev, primary_call real, int release)
{
    if (!real)
        return CUDA_ERROR_NOT_FOUND;
    if (!SG_ENTER())
        return real(dev);
    struct teardown t;
    teardown_begin(&t, api, sg_primary_ctx_if_active(dev));
    CUresult r = real(dev);
    teardown_end(&t, r == CUDA_SUCCESS && (!release || !sg_primary_active(dev)));
    return r;
}

SG_CUDA_SHIM(cuDevicePrimaryCtxReset_v2, (CUdevice dev))
{
    return primary_teardown("cuDevicePrimaryCtxReset", dev, SG_REAL(cuDevicePrimaryCtxReset_v2), 0);
}

SG_CUDA_SHIM(cuDevicePrimaryCtxRelease_v2, (CUdevice dev))
{
    return primary_teardown("cuDevicePrimaryCtxRelease", dev, SG_REAL(cuDevicePrimaryCtxRelease_v2), 1);
}

/* The CUDA 7.0 ABIs (the unversioned symbols, which cuda.h renames to the
 * _v2 ones): the same calls for runtimes built before 11.0. */
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxRelease
SG_CUDA_SHIM(cuDevicePrimaryCtxReset, (CUdevice dev))
{
    return primary_teardown("cuDevicePrimaryCtxReset", dev, SG_REAL(cuDevicePrimaryCtxReset), 0);
}

SG_CUDA_SHIM(cuDevicePrimaryCtxRelease, (CUdevice dev))
{
    return primary_teardown("cuDevicePrimaryCtxRelease", dev, SG_REAL(cuDevicePrimaryCtxRelease), 1);
}
