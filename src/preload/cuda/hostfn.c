/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of host functions and stream callbacks: the program's function is
 * enqueued behind a trampoline that observes its stream's earlier work when
 * it starts (life/hostfn.c). Captured streams replay the function on every
 * graph launch, so there it gets a graph trampoline (life/graph.c). */
#include "config.h"

#include "life/graph.h"
#include "life/hostfn.h"
#include "model/sync.h"
#include "preload/shim.h"

#define HOST_FN(symbol, per_thread)                                           \
    SG_CUDA_SHIM(symbol, (CUstream s, CUhostFn fn, void *data))                   \
    {                                                                         \
        int entered = SG_ENTER();                                             \
        int capturing = entered && sg_stream_is_capturing(s, per_thread);     \
        if (capturing && sg_graph_wrap_host_fn(&fn, &data) == 0)              \
            return SG_FORWARD(symbol, s, fn, data);                           \
        struct sg_host_fn *t =                                                \
            entered ? sg_host_fn_prepare(s, per_thread, "cuLaunchHostFunc", capturing) \
                    : NULL;                                                   \
        if (!t)                                                               \
            return SG_FORWARD(symbol, s, fn, data);                           \
        t->fn = fn, t->data = data;                                           \
        CUresult r = SG_FORWARD(symbol, s, sg_host_fn_run, t);                   \
        if (r != CUDA_SUCCESS)                                                \
            sg_host_fn_discard(t);                                                       \
        return r;                                                             \
    }

HOST_FN(cuLaunchHostFunc, 0)
HOST_FN(cuLaunchHostFunc_ptsz, 1)

#define CALLBACK(symbol, per_thread)                                                   \
    SG_CUDA_SHIM(symbol, (CUstream s, CUstreamCallback cb, void *data, unsigned int flags)) \
    {                                                                                  \
        struct sg_host_fn *t =                                                         \
            SG_ENTER() ? sg_host_fn_prepare(s, per_thread, "cuStreamAddCallback", -1) : NULL; \
        if (!t)                                                                        \
            return SG_FORWARD(symbol, s, cb, data, flags);                             \
        t->cb = cb, t->data = data;                                                    \
        CUresult r = SG_FORWARD(symbol, s, sg_host_fn_run_callback, t, flags);                    \
        if (r != CUDA_SUCCESS)                                                         \
            sg_host_fn_discard(t);                                                                \
        return r;                                                                      \
    }

CALLBACK(cuStreamAddCallback, 0)
CALLBACK(cuStreamAddCallback_ptsz, 1)
