/* SPDX-License-Identifier: Apache-2.0 */
/* Guarding the host side of an intercepted copy, of any shape (linear,
 * 2D, 3D: each host side that is pinned is guarded with the exact rows it
 * covers; bytes between the rows stay the program's). The enqueue stacks are
 * captured lazily: only a copy with a pinned host side pays for them, and
 * a call with several such ranges (a batch) pays once. So does the sampled
 * mode's decision: a site counts calls, not the ranges each one guards. */
#include "config.h"

#include "base/lock.h"
#include "base/options.h"
#include "base/page.h"
#include "capture/python.h"
#include "capture/stack.h"
#include "life/overlap.h"
#include "life/site.h"
#include "model/model.h"
#include "model/sample.h"
#include "model/sync.h"

#define MAX_ROW_SLOTS 64

/* Stream captures record copies into a graph instead of running them:
 * nothing to guard. Asked once per call. */
static int stream_capturing(struct copy_call *call)
{
    if (call->capturing == 0)
        call->capturing = sg_stream_is_capturing(call->stream, call->per_thread) ? 1 : -1;
    return call->capturing > 0;
}

static void capture(struct copy_call *call)
{
    if (call->captured)
        return;
    call->site.npcs = sg_stack_capture(call->site.pcs, (int)sg_opt.max_frames);
    call->site.npy = sg_python_capture(call->site.py, SG_MAX_PYFRAMES);
    call->captured = 1;
}

/* sample=N: one decision per call (a copy, memset, memory operation,
 * kernel launch or graph launch), at its first pinned range, for every
 * range it guards: the rows of a pitched copy, the allocations of a kernel,
 * the nodes of a graph. Deciding per range would guard part of a copy, and
 * under an even N a call with two ranges would guard the same one of them
 * every time. */
static int sampled_out(struct copy_call *call)
{
    if (call->sampled == 0) {
        int guard = 1;
        if (sg_opt.sample) {
            sg_lock(&sg_model_lock);
            guard = sg_sample_should_guard(call->site.pcs, call->site.npcs, call->site.py,
                                           call->site.npy);
            sg_unlock(&sg_model_lock);
        }
        call->sampled = guard ? 1 : -1;
    }
    return call->sampled < 0;
}

static void track(struct copy_call *call, uintptr_t host, struct sg_shape shape, int guard)
{
    call->base = host, call->shape = shape, call->guard = guard;
    struct sg_copy_request rq = { .desc = call->desc,
                                  .stream = call->stream,
                                  .per_thread = call->per_thread,
                                  .py = call->site.py,
                                  .npy = call->site.npy,
                                  .sampled_out = sampled_out(call) };
    sg_copy_overlap_check(&rq, call->site.pcs, call->site.npcs);
    sg_copy_track(&rq, call->site.pcs, call->site.npcs);
}

/* Pinned memory is guarded for every operation; managed memory (in the
 * table only with managed_races) for kernels alone: a copy with it is
 * device memory to the driver, asynchronous to the host either way. */
static int guardable(const struct copy_call *call, int kind)
{
    return kind == SG_HOST_PINNED || (kind == SG_HOST_MANAGED && call->origin == SG_ORIGIN_KERNEL);
}

void sg_copy_call_guard(struct copy_call *call, uintptr_t host, struct sg_shape shape, int guard)
{
    if (guard == SG_GUARD_READ_ONLY && !sg_opt.guard_sources)
        return;
    host = sg_pinned_unalias(host); /* the device's own address of mapped memory */
    size_t extent = sg_shape_extent(&shape);
    if (!host || !extent || !guardable(call, sg_host_kind(host, extent)) || stream_capturing(call))
        return;
    capture(call);
    size_t rows = shape.height * shape.depth;
    /* Rows far apart leave whole pages between them that need no guard:
     * guard each row on its own, as long as there are few. */
    if (shape.pitch - shape.width >= sg_page_size && rows <= MAX_ROW_SLOTS) {
        for (size_t z = 0; z < shape.depth; z++)
            for (size_t y = 0; y < shape.height; y++)
                track(call, host + (z * shape.slice_rows + y) * shape.pitch,
                      sg_shape_linear(shape.width), guard);
        return;
    }
    track(call, host, shape, guard);
}

void sg_copy_call_done(const struct copy_call *call)
{
    if (!call->captured && call->capturing <= 0 && sg_observe_needed())
        sg_note_stream_work(call->stream, call->per_thread);
}

int sg_copy_is_host_side(CUmemorytype type, CUdeviceptr dev)
{
    return type == CU_MEMORYTYPE_HOST || (type == CU_MEMORYTYPE_UNIFIED && sg_is_host_pointer(dev));
}

uintptr_t sg_copy_host_side(CUmemorytype type, const void *host, CUdeviceptr dev)
{
    if (type == CU_MEMORYTYPE_HOST)
        return (uintptr_t)host;
    if (type == CU_MEMORYTYPE_UNIFIED)
        return (uintptr_t)dev;
    if (type == CU_MEMORYTYPE_DEVICE)
        return sg_copy_mapped_side(dev);
    return 0;
}

uintptr_t sg_copy_mapped_side(CUdeviceptr dev)
{
    uintptr_t base;
    size_t size;
    if (!sg_pinned_range_any((uintptr_t)dev, &base, &size))
        return 0;
    return sg_pinned_unalias((uintptr_t)dev);
}

static struct sg_shape shape_of(size_t width, size_t pitch, size_t height, size_t slice_rows,
                                size_t depth)
{
    if (pitch < width)
        pitch = width; /* a single row may leave the pitch unset */
    if (slice_rows < height)
        slice_rows = height;
    return (struct sg_shape){ width, pitch, height, slice_rows, depth };
}

void sg_copy_call_guard_2d(struct copy_call *call, const CUDA_MEMCPY2D *p)
{
    uintptr_t dst = sg_copy_host_side(p->dstMemoryType, p->dstHost, p->dstDevice);
    uintptr_t src = sg_copy_host_side(p->srcMemoryType, p->srcHost, p->srcDevice);
    if (dst)
        sg_copy_call_guard(call, dst + p->dstY * p->dstPitch + p->dstXInBytes,
                           shape_of(p->WidthInBytes, p->dstPitch, p->Height, p->Height, 1),
                           SG_GUARD_NO_ACCESS);
    if (src)
        sg_copy_call_guard(call, src + p->srcY * p->srcPitch + p->srcXInBytes,
                           shape_of(p->WidthInBytes, p->srcPitch, p->Height, p->Height, 1),
                           SG_GUARD_READ_ONLY);
}

void sg_copy_call_guard_3d(struct copy_call *call, const CUDA_MEMCPY3D *p)
{
    uintptr_t dst = sg_copy_host_side(p->dstMemoryType, p->dstHost, p->dstDevice);
    uintptr_t src = sg_copy_host_side(p->srcMemoryType, p->srcHost, p->srcDevice);
    if (dst)
        sg_copy_call_guard(
            call, dst + (p->dstZ * p->dstHeight + p->dstY) * p->dstPitch + p->dstXInBytes,
            shape_of(p->WidthInBytes, p->dstPitch, p->Height, p->dstHeight, p->Depth),
            SG_GUARD_NO_ACCESS);
    if (src)
        sg_copy_call_guard(
            call, src + (p->srcZ * p->srcHeight + p->srcY) * p->srcPitch + p->srcXInBytes,
            shape_of(p->WidthInBytes, p->srcPitch, p->Height, p->srcHeight, p->Depth),
            SG_GUARD_READ_ONLY);
}

void sg_copy_call_guard_operand(struct copy_call *call, const CUmemcpy3DOperand *o,
                                const CUextent3D *e, size_t elem, int guard)
{
    if (o->type != CU_MEMCPY_OPERAND_TYPE_POINTER || !elem)
        return;
    sg_copy_call_guard(call, (uintptr_t)o->op.ptr.ptr,
                       shape_of(e->width * elem, o->op.ptr.rowLength * elem, e->height,
                                o->op.ptr.layerHeight, e->depth),
                       guard);
}
