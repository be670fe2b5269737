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
 * directly.
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
    bool sh = is_host(c->src.where), dh = is_host(c->dst.where);
    for (size_t z = 0; z < c->depth; z++)
        for (size_t y = 0; y < c->height; y++)
            move_bytes(c->dst.addr + z * c->dst.slice + y * c->dst.pitch, dh,
                       c->src.addr + z * c->src.slice + y * c->src.pitch, sh, c->width);
}

static void copy_destroy(emu_op *op)
{
    free(((copy_op *)op)->staging);
}

static const emu_op_class copy_class = { .run = copy_run, .destroy = copy_destroy };

/* ---- classification and rules --------------------------------------------- */

typedef enum { RUN_ASYNC, RUN_STAGED, RUN_WAIT } copy_policy;

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
    return CUDA_SUCCESS;
}

static copy_policy choose_policy(const emu_copy *c)
{
    bool sh = is_host(c->src.where), dh = is_host(c->dst.where);
    if (!c->async)
        return sh || dh ? RUN_WAIT : RUN_ASYNC;  /* only device to device skips the wait */
    if (sh && dh)
        return RUN_WAIT;                        /* host to host: fully synchronous */
    if (c->dst.where == EMU_PAGEABLE)
        return RUN_WAIT;                        /* to pageable: returns once complete */
    if (c->src.where == EMU_PAGEABLE)
        return RUN_STAGED;                      /* from pageable: staged, then async */
    return RUN_ASYNC;
}

/* Copies the pageable source into emulator memory on the calling thread,
 * the way a driver's CPU staging copy reads the program's buffer, and
 * makes the copy read from there. */
static void *stage_source(emu_copy *c)
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

/* cuMemcpyPeer is asynchronous to the host but comes after all pending work
 * of the current (the stream's), source and destination contexts. */
static void add_peer_deps(const emu_copy *c, CUstream s, emu_deps *deps)
{
    if (!c->peer || c->async)
        return;
    emu_ctx_capture(s->ctx, deps);
    emu_ctx_capture(c->peer_ctx[0], deps);
    emu_ctx_capture(c->peer_ctx[1], deps);
}

/* Lock held: everything that can fail before anything is enqueued. */
static CUresult validate(emu_copy *c, copy_policy *policy)
{
    CUstream s;
    CUresult r = emu_stream_get(c->stream, c->null_means, &s);
    if (r == CUDA_SUCCESS)
        r = check_peers(c);
    if (r == CUDA_SUCCESS && c->width && c->height && c->depth) {
        if ((r = classify(&c->src, c)) == CUDA_SUCCESS)
            r = classify(&c->dst, c);
    }
    if (r == CUDA_SUCCESS)
        *policy = choose_policy(c);
    return r;
}

/* Lock held: enqueues the copy (the stream is looked up again since the
 * lock may have been dropped for staging) and waits if the rules say so. */
static CUresult enqueue_copy(emu_copy *c, void *staging, copy_policy policy)
{
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
    uint64_t seq = emu_enqueue(s, &op->op);
    if (policy == RUN_WAIT)
        emu_host_wait_op(s, seq);
    return CUDA_SUCCESS;
}

CUresult emu_copy_submit(emu_copy *c)
{
    emu_lock();
    copy_policy policy = RUN_ASYNC;
    CUresult r = validate(c, &policy);
    bool empty = !c->width || !c->height || !c->depth;
    void *staging = NULL;
    if (r == CUDA_SUCCESS && !empty && policy == RUN_STAGED) {
        /* Never hold the lock while touching program memory: a fault there
         * may run a handler that calls back into the driver. */
        emu_unlock();
        staging = stage_source(c);
        emu_lock();
    }
    if (r == CUDA_SUCCESS && !empty)
        r = enqueue_copy(c, staging, policy);
    emu_unlock();
    return r;
}
