/* SPDX-License-Identifier: Apache-2.0 */
/* kernel_multi.c - cuLaunchCooperativeKernelMultiDevice: one launch per
 * device, each on a stream of its own (created with cuStreamCreate*: "The
 * NULL stream or CU_STREAM_LEGACY or CU_STREAM_PER_THREAD cannot be used"),
 * with the same grid, block and shared memory size ("must match across
 * all kernels launched").
 *
 * Ordering, as documented: "By default, the kernel won't begin execution
 * on any GPU until all prior work in all the specified streams has
 * completed" (unless CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC),
 * and "any subsequent work pushed in any of the specified streams will not
 * begin execution until the kernels on all GPUs have completed" (unless
 * ..._NO_POST_LAUNCH_SYNC).  The first is each kernel's dependency on the
 * other streams' last operation; the second a marker after the kernels on
 * every stream, depending on all of them.  Not in a stream capture (the
 * driver cannot capture it either: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED). */
#include "emu.h"

#define MULTI_FLAGS \
    (CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC | CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC)

static const emu_op_class after_all_class = { .node_type = CU_GRAPH_NODE_TYPE_EMPTY };

static bool same_shape(const CUDA_LAUNCH_PARAMS *a, const CUDA_LAUNCH_PARAMS *b)
{
    return a->gridDimX == b->gridDimX && a->gridDimY == b->gridDimY && a->gridDimZ == b->gridDimZ &&
           a->blockDimX == b->blockDimX && a->blockDimY == b->blockDimY && a->blockDimZ == b->blockDimZ &&
           a->sharedMemBytes == b->sharedMemBytes;
}

/* The stream of entry i: a stream the program created, on a device no
 * earlier entry uses, not capturing (lock held). */
static CUresult entry_stream(const CUDA_LAUNCH_PARAMS *list, unsigned i, CUstream *streams)
{
    const CUDA_LAUNCH_PARAMS *p = &list[i];
    if (!p->function || !same_shape(p, &list[0]))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = emu_kernel_check_dims(p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
                                       p->blockDimZ);
    if (r == CUDA_SUCCESS && (!p->hStream || p->hStream == CU_STREAM_LEGACY || p->hStream == CU_STREAM_PER_THREAD))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        r = emu_stream_get(p->hStream, EMU_NULL_LEGACY, &streams[i]);
    for (unsigned j = 0; r == CUDA_SUCCESS && j < i; j++)
        if (streams[j]->ctx->dev == streams[i]->ctx->dev)
            r = CUDA_ERROR_INVALID_VALUE; /* one launch per device */
    if (r == CUDA_SUCCESS && emu_capturing(streams[i]))
        r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    return r;
}

/* Builds every kernel operation before enqueuing any (lock held). */
static CUresult build(const CUDA_LAUNCH_PARAMS *list, unsigned n, CUstream *streams, emu_op **ops)
{
    CUresult r = CUDA_SUCCESS;
    unsigned built = 0;
    for (unsigned i = 0; r == CUDA_SUCCESS && i < n; i++)
        r = entry_stream(list, i, streams);
    for (; r == CUDA_SUCCESS && built < n; built++)
        r = emu_kernel_launch_op(list[built].function, list[built].kernelParams, NULL, &ops[built]);
    if (r != CUDA_SUCCESS)
        while (built-- > 0)
            if (ops[built])
                emu_op_discard(ops[built]);
    return r;
}

static void enqueue(CUstream *streams, emu_op **ops, unsigned n, unsigned int flags)
{
    uint64_t seq[EMU_MAX_DEVICES];
    for (unsigned i = 0; i < n && !(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC); i++)
        for (unsigned j = 0; j < n; j++)
            if (j != i && streams[j]->enqueued)
                emu_deps_add(&ops[i]->deps, streams[j], streams[j]->enqueued);
    for (unsigned i = 0; i < n; i++)
        seq[i] = emu_enqueue(streams[i], ops[i]);
    for (unsigned i = 0; i < n && !(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC); i++) {
        emu_op *after = emu_op_new(&after_all_class, sizeof *after);
        for (unsigned j = 0; j < n; j++)
            if (j != i)
                emu_deps_add(&after->deps, streams[j], seq[j]);
        emu_enqueue(streams[i], after);
    }
}

CUresult CUDAAPI cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *launchParamsList, unsigned int numDevices,
                                                      unsigned int flags)
{
    if (!launchParamsList || !numDevices || (flags & ~MULTI_FLAGS))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && numDevices > (unsigned)emu_device_count())
        r = CUDA_ERROR_INVALID_VALUE;
    CUstream streams[EMU_MAX_DEVICES];
    emu_op *ops[EMU_MAX_DEVICES] = { NULL };
    if (r == CUDA_SUCCESS)
        r = build(launchParamsList, numDevices, streams, ops);
    if (r == CUDA_SUCCESS)
        enqueue(streams, ops, numDevices, flags);
    emu_unlock();
    return r;
}
