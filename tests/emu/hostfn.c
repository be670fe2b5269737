/* SPDX-License-Identifier: Apache-2.0 */
/* hostfn.c - host functions and stream callbacks: user code run by the
 * stream's worker once the work before it completed, blocking the work
 * after it until it returns.  A stream capture records host functions as
 * host nodes; callbacks are "not supported with cuStreamBeginCapture". */
#include "emu.h"

typedef struct host_op {
    emu_op op;
    CUhostFn fn;                /* cuLaunchHostFunc */
    CUstreamCallback callback;  /* cuStreamAddCallback */
    CUstream handle;            /* the stream as the caller named it */
    void *data;
} host_op;

static void host_run(emu_op *op)
{
    host_op *h = (host_op *)op;
    if (h->fn)
        h->fn(h->data);
    else
        h->callback(h->handle, CUDA_SUCCESS, h->data);
}

static const emu_op_class host_class = { .node_type = CU_GRAPH_NODE_TYPE_HOST, .run = host_run };

static CUresult enqueue_host(CUstream hs, emu_null_stream null_means, const host_op *proto)
{
    emu_lock();
    CUstream s;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS && proto->callback && emu_capturing(s))
        r = emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    if (r == CUDA_SUCCESS) {
        host_op *op = emu_op_new(&host_class, sizeof *op);
        op->fn = proto->fn;
        op->callback = proto->callback;
        op->handle = hs;
        op->data = proto->data;
        uint64_t seq;
        r = emu_submit(s, &op->op, &seq);
    }
    emu_unlock();
    return r;
}

static CUresult launch_host_func(CUstream hs, CUhostFn fn, void *data, emu_null_stream null_means)
{
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    return enqueue_host(hs, null_means, &(host_op){ .fn = fn, .data = data });
}

EMU_NULL_STREAM_ABIS(cuLaunchHostFunc, cuLaunchHostFunc_ptsz,
                     (CUstream hStream, CUhostFn fn, void *userData),
                     launch_host_func, hStream, fn, userData)

static CUresult add_callback(CUstream hs, CUstreamCallback cb, void *data, unsigned int flags,
                             emu_null_stream null_means)
{
    if (!cb || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    return enqueue_host(hs, null_means, &(host_op){ .callback = cb, .data = data });
}

EMU_NULL_STREAM_ABIS(cuStreamAddCallback, cuStreamAddCallback_ptsz,
                     (CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags),
                     add_callback, hStream, callback, userData, flags)

/* ---- host nodes ---------------------------------------------------------- */

emu_op *emu_host_node_op(CUhostFn fn, void *data)
{
    host_op *op = emu_op_new(&host_class, sizeof *op);
    op->fn = fn;
    op->data = data;
    return &op->op;
}

void emu_host_op_params(const emu_op *op, CUDA_HOST_NODE_PARAMS *p)
{
    const host_op *h = (const host_op *)op;
    *p = (CUDA_HOST_NODE_PARAMS){ .fn = h->fn, .userData = h->data };
}
