/* SPDX-License-Identifier: Apache-2.0 */
/* copy.c - the copy engine: classification, the synchronisation rules of
 * NVIDIA's "API synchronization behavior", staging, and the copy operation
 * a stream's worker executes.
 *
 * Synchronous copies (cuMemcpy*, no Async suffix) go to the default stream:
 *   - device to device: no host-side synchronisation;
 *   - anything touching host memory: returns once the copy completed (which
 *     includes the stream's earlier work).
 * Asynchronous copies:
 *   - host to host: fully synchronous;
 *   - device to pageable host: returns once the copy completed;
 *   - pageable host to device: the source is staged before the call returns,
 *     the transfer happens in stream order;
 *   - everything else (page-locked host memory, device to device): enqueued,
 *     the call returns at once and the bytes move when the stream gets there.
 * The worker touches host memory only through DMA (dma.c), device memory
 * directly.  A copy between two host buffers is the exception: the driver
 * moves those bytes itself, on the calling thread, once the stream's earlier
 * work is done (seen on the H200: XLA's cuMemcpyDtoHAsync from a pinned
 * counter faulted inside the call), so the program's page protections
 * apply to it as to any CPU access.
 */
#include "copy.h"

#include <stdlib.h>
#include <string.h>

#define EMU_BOUNCE 65536

emu_copy emu_copy_1d(uintptr_t dst, emu_side_type dst_type, uintptr_t src, emu_side_type src_type, size_t n)
{
    return (emu_copy){
        .src = { .addr = src, .pitch = n, .slice = n, .type = src_type },
        .dst = { .addr = dst, .pitch = n, .slice = n, .type = dst_type },
        .width = n, .height = 1, .depth = 1,
    };
}

/* ---- the operation ------------------------------------------------------- */

typedef struct copy_op {
    emu_op op;
    emu_copy c;
    void *staging;              /* owned copy of a pageable source */
} copy_op;

static bool is_host(emu_where w)
{
    return w != EMU_DEVICE;
}

static void move_bytes(uintptr_t dst, bool dst_host, uintptr_t src, bool src_host, size_t n)
{
    if (!src_host && !dst_host) {
        memmove((void *)dst, (const void *)src, n);
    } else if (!dst_host) {
        emu_dma_read((void *)dst, src, n);
    } else if (!src_host) {
        emu_dma_write(dst, (const void *)src, n);
    } else {
        char buf[EMU_BOUNCE];   /* host to host: both ends through DMA */
        for (size_t off = 0; off < n; off += sizeof buf) {
            size_t k = n - off < sizeof buf ? n - off : sizeof buf;
            emu_dma_read(buf, src + off, k);
            emu_dma_write(dst + off, buf, k);
        }
    }
}

static void copy_run(emu_op *op)
{
    const emu_copy *c = &((copy_op *)op)->c;
    bool sh = c->src.dma, dh = c->dst.dma;
    for (size_t z = 0; z < c->depth; z++)
        for (size_t y = 0; y < c->height; y++)
            move_bytes(c->dst.addr + z * c->dst.slice + y * c->dst.pitch, dh,
                       c->src.addr + z * c->src.slice + y * c->src.pitch, sh, c->width);
}

static void copy_destroy(emu_op *op)
{
    free(((copy_op *)op)->staging);
}

/* Graph templates never stage, so a clone shares nothing. */
static const emu_op_class copy_class = {
    .node_type = CU_GRAPH_NODE_TYPE_MEMCPY,
    .run = copy_run,
    .destroy = copy_destroy,
};

/* ---- classification and rules --------------------------------------------- */

static size_t extent(const emu_side *s, const emu_copy *c)
{
    return (c->depth - 1) * s->slice + (c->height - 1) * s->pitch + c->width;
}

static CUresult classify(emu_side *s, const emu_copy *c)
{
    if (!s->addr)
        return CUDA_ERROR_INVALID_VALUE;
    emu_where w = emu_mem_where(s->addr, extent(s, c));
    if (w == EMU_BAD || (s->type == EMU_SIDE_DEVICE && w == EMU_PAGEABLE))
        return CUDA_ERROR_INVALID_VALUE;        /* not (all) device-accessible */
    s->where = w;
    s->dma = w != EMU_DEVICE || emu_mem_managed(s->addr);
    return CUDA_SUCCESS;
}

static emu_copy_policy choose_policy(const emu_copy *c)
{
    bool sh = is_host(c->src.where), dh = is_host(c->dst.where);
    if (!c->async)
        return sh || dh ? EMU_COPY_WAIT : EMU_COPY_ASYNC;   /* only device to device skips the wait */
    if (sh && dh)
        return EMU_COPY_WAIT;                   /* host to host: fully synchronous */
    if (c->dst.where == EMU_PAGEABLE)
        return EMU_COPY_WAIT;                   /* to pageable: returns once complete */
    if (c->src.where == EMU_PAGEABLE)
        return EMU_COPY_STAGED;                 /* from pageable: staged, then async */
    return EMU_COPY_ASYNC;
}

/* Copies the pageable source into emulator memory on the calling thread,
 * the way a driver's CPU staging copy reads the program's buffer, and
 * makes the copy read from there. */
void *emu_copy_stage(emu_copy *c)
{
    char *buf = emu_xmalloc(c->width * c->height * c->depth);
    char *p = buf;
    for (size_t z = 0; z < c->depth; z++)
        for (size_t y = 0; y < c->height; y++, p += c->width)
            memcpy(p, (const char *)(c->src.addr + z * c->src.slice + y * c->src.pitch), c->width);
    c->src = (emu_side){ .addr = (uintptr_t)buf, .pitch = c->width, .slice = c->width * c->height,
                         .type = EMU_SIDE_DEVICE, .where = EMU_DEVICE };
    return buf;
}

static CUresult check_peers(const emu_copy *c)
{
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; c->peer && i < 2 && r == CUDA_SUCCESS; i++)
        r = emu_ctx_check(c->peer_ctx[i]);
    return r;
}

/* cuMemcpyPeer is documented to come after all pending work of the current,
 * source and destination contexts.  Within one context the driver does not
 * do that (GPU run 39, tests/gpu/RESULTS.md: it did not wait for a
 * non-blocking stream's copy): it is plain work on the legacy stream, which
 * emu_submit orders.  The other contexts' work it still waits for (not
 * measured: the documented rule stands). */
static void add_peer_deps(const emu_copy *c, CUstream s, emu_deps *deps)
{
    if (!c->peer || c->async)
        return;
    for (size_t i = 0; i < 2; i++)
        if (c->peer_ctx[i] != s->ctx && (i == 0 || c->peer_ctx[1] != c->peer_ctx[0]))
            emu_ctx_capture(c->peer_ctx[i], deps);
}

static bool is_empty(const emu_copy *c)
{
    return !c->width || !c->height || !c->depth;
}

CUresult emu_copy_check(emu_copy *c, emu_copy_policy *policy)
{
    CUstream s;
    CUresult r = emu_stream_get(c->stream, c->null_means, &s);
    if (r == CUDA_SUCCESS)
        r = check_peers(c);
    if (r == CUDA_SUCCESS && !is_empty(c)) {
        if ((r = classify(&c->src, c)) == CUDA_SUCCESS)
            r = classify(&c->dst, c);
    }
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_enqueue(s);
    if (r == CUDA_SUCCESS)
        *policy = is_empty(c) ? EMU_COPY_ASYNC : choose_policy(c);
    /* A graph node cannot stage or make the host wait at every launch. */
    if (r == CUDA_SUCCESS && *policy != EMU_COPY_ASYNC && emu_capturing(s))
        r = emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    return r;
}

CUresult emu_copy_enqueue(const emu_copy *c, void *staging, uint64_t *seq)
{
    /* The stream is looked up again: the lock may have been dropped for
     * staging. */
    CUstream s;
    CUresult r = emu_stream_get(c->stream, c->null_means, &s);
    if (r != CUDA_SUCCESS) {
        free(staging);
        return r;
    }
    copy_op *op = emu_op_new(&copy_class, sizeof *op);
    op->c = *c;
    op->staging = staging;
    add_peer_deps(c, s, &op->op.deps);
    return emu_submit(s, &op->op, seq);
}

/* Host to host: both ends are CPU memory, moved by the calling thread. */
static bool on_cpu(const emu_copy *c)
{
    return is_host(c->src.where) && is_host(c->dst.where);
}

/* The host address behind a side given by the device's own address of a
 * mapped allocation: the driver's CPU copy uses the host's mapping (lock
 * held). */
static uintptr_t host_address(uintptr_t p)
{
    const emu_range *r = emu_mem_find(p);
    return r && r->kind == EMU_MEM_HOST_ALIAS ? r->alias + (p - r->base) : p;
}

/* Lock not held. */
static void cpu_copy(const emu_copy *c)
{
    for (size_t z = 0; z < c->depth; z++)
        for (size_t y = 0; y < c->height; y++)
            memmove((void *)(c->dst.addr + z * c->dst.slice + y * c->dst.pitch),
                    (const void *)(c->src.addr + z * c->src.slice + y * c->src.pitch), c->width);
}

/* Lock held; released. The stream's earlier work first (an empty
 * operation in stream order, waited for), then the bytes, without the
 * lock: a fault there may run a handler that calls back into the driver. */
static CUresult cpu_copy_in_order(const emu_copy *c)
{
    emu_copy marker = *c, bytes = *c;
    marker.width = 0;
    bytes.src.addr = host_address(c->src.addr);
    bytes.dst.addr = host_address(c->dst.addr);
    uint64_t seq = 0;
    CUresult r = emu_copy_enqueue(&marker, NULL, &seq);
    CUstream s;
    if (r == CUDA_SUCCESS && seq && emu_stream_get(c->stream, c->null_means, &s) == CUDA_SUCCESS)
        emu_host_wait_op(s, seq);
    emu_unlock();
    if (r == CUDA_SUCCESS)
        cpu_copy(&bytes);
    return r;
}

CUresult emu_copy_submit(emu_copy *c)
{
    emu_lock();
    emu_copy_policy policy = EMU_COPY_ASYNC;
    CUresult r = emu_copy_check(c, &policy);
    void *staging = NULL;
    if (r == CUDA_SUCCESS && !is_empty(c) && policy == EMU_COPY_WAIT && on_cpu(c))
        return cpu_copy_in_order(c);
    if (r == CUDA_SUCCESS && !is_empty(c) && policy == EMU_COPY_STAGED) {
        /* Never hold the lock while touching program memory: a fault there
         * may run a handler that calls back into the driver. */
        emu_unlock();
        staging = emu_copy_stage(c);
        emu_lock();
    }
    uint64_t seq = 0;
    if (r == CUDA_SUCCESS && !is_empty(c))
        r = emu_copy_enqueue(c, staging, &seq);
    if (r == CUDA_SUCCESS && policy == EMU_COPY_WAIT && seq) {
        CUstream s;
        if (emu_stream_get(c->stream, c->null_means, &s) == CUDA_SUCCESS)
            emu_host_wait_op(s, seq);
    }
    emu_unlock();
    return r;
}

/* ---- graph nodes ---------------------------------------------------------- */

CUresult emu_copy_node_op(emu_copy *c, emu_op **out)
{
    CUresult r = is_empty(c) ? CUDA_ERROR_INVALID_VALUE : classify(&c->src, c);
    if (r == CUDA_SUCCESS)
        r = classify(&c->dst, c);
    if (r == CUDA_SUCCESS && (c->src.where == EMU_PAGEABLE || c->dst.where == EMU_PAGEABLE))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS)
        return r;
    copy_op *op = emu_op_new(&copy_class, sizeof *op);
    op->c = *c;
    *out = &op->op;
    return CUDA_SUCCESS;
}

static CUmemorytype memory_type(emu_side_type t)
{
    return t == EMU_SIDE_HOST ? CU_MEMORYTYPE_HOST : t == EMU_SIDE_DEVICE ? CU_MEMORYTYPE_DEVICE
                                                                          : CU_MEMORYTYPE_UNIFIED;
}

void emu_copy_op_params(const emu_op *op, CUDA_MEMCPY3D *p)
{
    const emu_copy *c = &((const copy_op *)op)->c;
    *p = (CUDA_MEMCPY3D){ 0 };
    p->srcMemoryType = memory_type(c->src.type);
    if (c->src.type == EMU_SIDE_HOST)
        p->srcHost = (const void *)c->src.addr;
    else
        p->srcDevice = (CUdeviceptr)c->src.addr;
    p->srcPitch = c->src.pitch;
    p->srcHeight = c->src.pitch ? c->src.slice / c->src.pitch : c->height;
    p->dstMemoryType = memory_type(c->dst.type);
    if (c->dst.type == EMU_SIDE_HOST)
        p->dstHost = (void *)c->dst.addr;
    else
        p->dstDevice = (CUdeviceptr)c->dst.addr;
    p->dstPitch = c->dst.pitch;
    p->dstHeight = c->dst.pitch ? c->dst.slice / c->dst.pitch : c->height;
    p->WidthInBytes = c->width;
    p->Height = c->height;
    p->Depth = c->depth;
}
