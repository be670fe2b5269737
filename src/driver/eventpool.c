/* SPDX-License-Identifier: Apache-2.0 */
/* Events syncguard records after each guarded copy, so that the fault
 * handler can wait for exactly that copy. Creating an event costs more than
 * recording one, so released events are kept per context and reused. The
 * put side runs in the fault handler: fixed arrays, no allocation. */
#include "config.h"

#include "base/lock.h"
#include "driver/driver.h"
#include "driver/eventpool.h"

#define POOL_CTXS 16
#define POOL_EVENTS 256

struct pool {
    CUcontext ctx;
    int n;
    CUevent ev[POOL_EVENTS];
};

static struct pool pools[POOL_CTXS];
static sg_lock_t pool_lock = SG_LOCK_INIT;

static struct pool *pool_of(CUcontext ctx, int create)
{
    for (int i = 0; i < POOL_CTXS; i++)
        if (pools[i].ctx == ctx)
            return &pools[i];
    if (!create)
        return NULL;
    for (int i = 0; i < POOL_CTXS; i++)
        if (!pools[i].ctx) {
            pools[i].ctx = ctx;
            return &pools[i];
        }
    return NULL;
}

static CUevent create_in(CUcontext ctx)
{
    const struct sg_driver *d = sg_driver();
    CUevent e = NULL;
    if (!d->cuEventCreate)
        return NULL;
    int pushed = ctx && ctx != sg_current_ctx() && d->cuCtxPushCurrent &&
                 d->cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
    if (d->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS)
        e = NULL;
    if (pushed) {
        CUcontext dummy;
        d->cuCtxPopCurrent(&dummy);
    }
    return e;
}

CUevent sg_event_pool_get(CUcontext ctx)
{
    CUevent e = NULL;
    sg_lock(&pool_lock);
    struct pool *p = pool_of(ctx, 1);
    if (p && p->n > 0)
        e = p->ev[--p->n];
    sg_unlock(&pool_lock);
    return e ? e : create_in(ctx);
}

void sg_event_pool_put(CUcontext ctx, CUevent e)
{
    if (!e)
        return;
    sg_lock(&pool_lock);
    struct pool *p = pool_of(ctx, 1);
    int kept = p && p->n < POOL_EVENTS;
    if (kept)
        p->ev[p->n++] = e;
    sg_unlock(&pool_lock);
    if (!kept && sg_driver()->cuEventDestroy)
        sg_driver()->cuEventDestroy(e);
}

/* A destroyed context takes its events with it. */
void sg_event_pool_forget_ctx(CUcontext ctx)
{
    sg_lock(&pool_lock);
    struct pool *p = pool_of(ctx, 0);
    if (p)
        p->n = 0, p->ctx = NULL;
    sg_unlock(&pool_lock);
}

void sg_event_pool_after_fork_child(void)
{
    for (int i = 0; i < POOL_CTXS; i++)
        pools[i].n = 0, pools[i].ctx = NULL;
    sg_lock_reset(&pool_lock);
}
