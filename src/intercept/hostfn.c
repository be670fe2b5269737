/* Shims of host functions and stream callbacks. When the driver starts one,
 * all work enqueued before it on its stream is complete, and the host
 * thread running it knows that: syncguard's trampoline observes it, then
 * calls the program's function. Host synchronization is not tracked between
 * host threads (a copy observed complete by one is released for all), so
 * a thread that waits for the callback is covered too. Captured streams
 * replay the function on every graph launch, so it is not wrapped there. */
#include "config.h"

#include <stdlib.h>

#include "syncguard/intercept.h"
#include "syncguard/observe.h"

struct trampoline {
    CUhostFn fn;
    CUstreamCallback cb;
    void *data;
    struct sg_sync_op op;
};

/* The function is about to be enqueued: what its start will show.
 * capturing: whether s is being captured, -1 when the caller did not ask
 * the driver yet (asked here only when something is to be observed). */
static struct trampoline *prepare(CUstream s, int per_thread, const char *api, int capturing)
{
    if (!SG_ENTER() || !sg_observe_needed() || capturing > 0 ||
        (capturing < 0 && sg_stream_is_capturing(s, per_thread)))
        return NULL;
    struct trampoline *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    sg_sync_op_begin(&t->op, api, SG_SYNC_HOST_FN, s, per_thread);
    return t;
}

static void discard(struct trampoline *t)
{
    sg_vc_free(&t->op.covered);
    free(t);
}

static void CUDA_CB run_host_fn(void *arg)
{
    struct trampoline *t = arg;
    sg_sync_op_end(&t->op, 1);
    t->fn(t->data);
    free(t);
}

static void CUDA_CB run_callback(CUstream s, CUresult status, void *arg)
{
    struct trampoline *t = arg;
    sg_sync_op_end(&t->op, status == CUDA_SUCCESS);
    t->cb(s, status, t->data);
    free(t);
}

#define HOST_FN(symbol, per_thread)                                           \
    SG_WRAPPER(symbol)(CUstream s, CUhostFn fn, void *data)                   \
    {                                                                         \
        int capturing = SG_ENTER() && sg_stream_is_capturing(s, per_thread);  \
        if (capturing && sg_graph_wrap_host_fn(&fn, &data) == 0)              \
            return SG_FORWARD(symbol, s, fn, data);                           \
        struct trampoline *t =                                                \
            prepare(s, per_thread, "cuLaunchHostFunc", capturing);            \
        if (!t)                                                               \
            return SG_FORWARD(symbol, s, fn, data);                           \
        t->fn = fn, t->data = data;                                           \
        CUresult r = SG_FORWARD(symbol, s, run_host_fn, t);                   \
        if (r != CUDA_SUCCESS)                                                \
            discard(t);                                                       \
        return r;                                                             \
    }

HOST_FN(cuLaunchHostFunc, 0)
HOST_FN(cuLaunchHostFunc_ptsz, 1)

#define CALLBACK(symbol, per_thread)                                                   \
    SG_WRAPPER(symbol)(CUstream s, CUstreamCallback cb, void *data, unsigned int flags) \
    {                                                                                  \
        struct trampoline *t = prepare(s, per_thread, "cuStreamAddCallback", -1);          \
        if (!t)                                                                        \
            return SG_FORWARD(symbol, s, cb, data, flags);                             \
        t->cb = cb, t->data = data;                                                    \
        CUresult r = SG_FORWARD(symbol, s, run_callback, t, flags);                    \
        if (r != CUDA_SUCCESS)                                                         \
            discard(t);                                                                \
        return r;                                                                      \
    }

CALLBACK(cuStreamAddCallback, 0)
CALLBACK(cuStreamAddCallback_ptsz, 1)
