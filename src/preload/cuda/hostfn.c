/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of host functions and stream callbacks: the program's function is
 * enqueued behind a trampoline that observes its stream's earlier work when
 * it starts, and is a gate for the work after it until it returns
 * (work/hostfn.c). Captured streams replay the function on every graph
 * launch, so there it gets a graph trampoline (work/graph_host.c). */
#include "config.h"

#include "fault/wait.h"
#include "work/graph.h"
#include "work/hostfn.h"
#include "model/sync.h"
#include "preload/shim.h"

/* Forwards the trampoline in place of the program's function; its place
 * on the stream is taken once the driver accepted it. */
#define FORWARD_TRAMPOLINE(symbol, per_thread, t, ...)                        \
    ({                                                                        \
        sg_waiters_ensure(); /* a fault behind it waits boundedly */          \
        CUresult r_ = SG_FORWARD(symbol, __VA_ARGS__);                        \
        if (r_ == CUDA_SUCCESS)                                               \
            sg_host_fn_enqueued(s, per_thread);                               \
        else                                                                  \
            sg_host_fn_discard(t);                                            \
        r_;                                                                   \
    })

#define HOST_FN(symbol, per_thread)                                           \
    SG_CUDA_SHIM(symbol, (CUstream s, CUhostFn fn, void *data))                   \
    {                                                                         \
        int entered = SG_ENTER();                                             \
        SG_IN_ORDER();                                                        \
        int capturing = entered && sg_stream_is_capturing(s, per_thread);     \
        if (capturing && sg_graph_wrap_host_fn(&fn, &data) == 0)              \
            return SG_FORWARD(symbol, s, fn, data);                           \
        struct sg_host_fn *t =                                                \
            entered ? sg_host_fn_prepare(s, per_thread, "cuLaunchHostFunc", capturing) \
                    : NULL;                                                   \
        if (!t)                                                               \
            return SG_FORWARD(symbol, s, fn, data);                           \
        t->fn = fn, t->data = data;                                           \
        return FORWARD_TRAMPOLINE(symbol, per_thread, t, s, sg_host_fn_run, t); \
    }

HOST_FN(cuLaunchHostFunc, 0)
HOST_FN(cuLaunchHostFunc_ptsz, 1)

#define CALLBACK(symbol, per_thread)                                                   \
    SG_CUDA_SHIM(symbol, (CUstream s, CUstreamCallback cb, void *data, unsigned int flags)) \
    {                                                                                  \
        SG_IN_ORDER();                                                                 \
        struct sg_host_fn *t =                                                         \
            SG_ENTER() ? sg_host_fn_prepare(s, per_thread, "cuStreamAddCallback", -1) : NULL; \
        if (!t)                                                                        \
            return SG_FORWARD(symbol, s, cb, data, flags);                             \
        t->cb = cb, t->data = data;                                                    \
        return FORWARD_TRAMPOLINE(symbol, per_thread, t, s, sg_host_fn_run_callback, t, flags); \
    }

CALLBACK(cuStreamAddCallback, 0)
CALLBACK(cuStreamAddCallback_ptsz, 1)
