/* SPDX-License-Identifier: Apache-2.0 */
/* context.c - contexts: primary and created ones, the per-thread context
 * stack, teardown.
 *
 * Context structures are never freed: a destroyed context's handle may
 * still sit in another thread's stack, and calls made through it must
 * report CUDA_ERROR_CONTEXT_IS_DESTROYED rather than touch freed memory.
 */
#include "emu.h"

#include <stdlib.h>

static CUcontext all_contexts;
static CUcontext primaries[EMU_MAX_DEVICES];
static unsigned long long next_ctx_id = 1;

/* ---- the calling thread's context stack ---------------------------------- */

typedef struct ctx_stack {
    CUcontext *v;
    size_t n, cap;
} ctx_stack;

static __thread ctx_stack *tls_stack;
static pthread_key_t stack_key;
static pthread_once_t stack_once = PTHREAD_ONCE_INIT;

static void stack_free(void *p)
{
    ctx_stack *st = p;
    free(st->v);
    free(st);
    tls_stack = NULL;           /* later destructors of this thread start afresh */
}

static void stack_key_init(void)
{
    pthread_key_create(&stack_key, stack_free);
}

static ctx_stack *stack(void)
{
    if (!tls_stack) {
        pthread_once(&stack_once, stack_key_init);
        tls_stack = emu_xcalloc(1, sizeof *tls_stack);
        pthread_setspecific(stack_key, tls_stack);
    }
    return tls_stack;
}

static CUcontext stack_top(void)
{
    ctx_stack *st = stack();
    return st->n ? st->v[st->n - 1] : NULL;
}

static void stack_push(CUcontext c)
{
    ctx_stack *st = stack();
    st->v = emu_grow(st->v, st->n, &st->cap, sizeof *st->v);
    st->v[st->n++] = c;
}

static CUcontext stack_pop(void)
{
    ctx_stack *st = stack();
    return st->n ? st->v[--st->n] : NULL;
}

/* ---- lifetime ------------------------------------------------------------ */

static CUcontext ctx_new(CUdevice dev, unsigned int flags, bool primary)
{
    CUcontext c = emu_xcalloc(1, sizeof *c);
    c->dev = dev;
    c->flags = flags;
    c->primary = primary;
    c->id = next_ctx_id++;
    c->next_all = all_contexts;
    all_contexts = c;
    return c;
}

static void ctx_activate(CUcontext c)
{
    c->legacy = emu_stream_new(c, EMU_STREAM_LEGACY, 0, 0);
    c->active = true;
}

/* Waits for all of the context's work, then drops its streams, events,
 * memory (its host allocations unmapped, its registrations forgotten) and
 * modules, as cuCtxDestroy and a primary context reset do. */
static void ctx_teardown(CUcontext c)
{
    emu_ctx_host_wait(c);
    CUstream next;
    for (CUstream s = c->streams; s; s = next) {
        next = s->next;
        if (!s->dying)
            emu_stream_kill(s);
    }
    c->legacy = NULL;
    emu_events_drop_ctx(c);
    emu_mem_drop_ctx(c);
    emu_modules_drop_ctx(c);
    c->epoch++;                 /* per-thread streams of the old epoch are stale */
    c->active = false;
}

CUresult emu_ctx_check(CUcontext c)
{
    for (CUcontext k = all_contexts; k; k = k->next_all) {
        if (k != c)
            continue;
        if (c->destroyed)
            return CUDA_ERROR_CONTEXT_IS_DESTROYED;
        return c->active ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
    }
    return CUDA_ERROR_INVALID_CONTEXT;
}

/* emu_check_init, then emu_ctx_check: the errors of a call that names a
 * context (lock held). */
static CUresult check_init_ctx(CUcontext c)
{
    CUresult r = emu_check_init();
    return r == CUDA_SUCCESS ? emu_ctx_check(c) : r;
}

CUresult emu_ctx_current(CUcontext *out)
{
    CUresult r = emu_check_init();
    if (r != CUDA_SUCCESS)
        return r;
    CUcontext c = stack_top();
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    if ((r = emu_ctx_check(c)) == CUDA_SUCCESS)
        *out = c;
    return r;
}

void emu_ctx_capture(CUcontext c, emu_deps *out)
{
    for (CUstream s = c->streams; s; s = s->next)
        emu_deps_add(out, s, s->enqueued);
}

void emu_ctx_host_wait(CUcontext c)
{
    emu_deps d = { 0 };
    emu_ctx_capture(c, &d);
    emu_host_wait(&d);
    emu_deps_clear(&d);
}

/* ---- primary contexts ---------------------------------------------------- */

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = emu_device_check(dev);
    if (r == CUDA_SUCCESS) {
        if (!primaries[dev])
            primaries[dev] = ctx_new(dev, 0, true);
        CUcontext c = primaries[dev];
        if (c->primary_refs++ == 0)
            ctx_activate(c);
        *pctx = c;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    emu_lock();
    CUresult r = emu_check_init_device(dev);
    if (r == CUDA_SUCCESS && (!primaries[dev] || primaries[dev]->primary_refs == 0))
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS && --primaries[dev]->primary_refs == 0)
        ctx_teardown(primaries[dev]);   /* "reset once the last reference is released" */
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) EMU_OLD_ABI_OF(cuDevicePrimaryCtxRelease_v2);

CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    emu_lock();
    CUresult r = emu_check_init_device(dev);
    CUcontext c = r == CUDA_SUCCESS ? primaries[dev] : NULL;
    if (c && c->active) {
        ctx_teardown(c);
        ctx_activate(c);        /* a reset does not release the retains */
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) EMU_OLD_ABI_OF(cuDevicePrimaryCtxReset_v2);

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && (!flags || !active))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = emu_device_check(dev);
    if (r == CUDA_SUCCESS) {
        *flags = primaries[dev] ? primaries[dev]->flags : 0;
        *active = primaries[dev] && primaries[dev]->active;
    }
    emu_unlock();
    return r;
}

/* ---- created contexts ---------------------------------------------------- */

static CUresult ctx_create(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && (!pctx || (flags & ~(unsigned int)CU_CTX_FLAGS_MASK)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = emu_device_check(dev);
    if (r == CUDA_SUCCESS) {
        CUcontext c = ctx_new(dev, flags, false);
        ctx_activate(c);
        stack_push(c);          /* a new context is made current */
        *pctx = c;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return ctx_create(pctx, flags, dev);
}

CUresult CUDAAPI cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                unsigned int flags, CUdevice dev)
{
    if (numParams < 0 || (numParams > 0 && !paramsArray))
        return CUDA_ERROR_INVALID_VALUE;
    if (numParams > 0)
        return CUDA_ERROR_NOT_SUPPORTED;        /* no execution affinity here */
    return ctx_create(pctx, flags, dev);
}

CUresult CUDAAPI cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                                unsigned int flags, CUdevice dev)
{
    if (ctxCreateParams && (ctxCreateParams->numExecAffinityParams || ctxCreateParams->cigParams))
        return CUDA_ERROR_NOT_SUPPORTED;
    return ctx_create(pctx, flags, dev);
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx)
{
    emu_lock();
    CUresult r = check_init_ctx(ctx);
    if (r == CUDA_SUCCESS && ctx->primary)
        r = CUDA_ERROR_INVALID_CONTEXT;         /* primaries are released, not destroyed */
    if (r == CUDA_SUCCESS) {
        ctx_teardown(ctx);
        ctx->destroyed = true;
        if (stack_top() == ctx)
            stack_pop();
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxDestroy(CUcontext ctx) EMU_OLD_ABI_OF(cuCtxDestroy_v2);

/* ---- the current context ------------------------------------------------- */

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && ctx)
        r = emu_ctx_check(ctx);
    if (r == CUDA_SUCCESS) {
        stack_pop();            /* replaces the top; NULL just pops it */
        if (ctx)
            stack_push(ctx);
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && !pctx)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *pctx = stack_top();
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx)
{
    emu_lock();
    CUresult r = check_init_ctx(ctx);
    if (r == CUDA_SUCCESS)
        stack_push(ctx);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) EMU_OLD_ABI_OF(cuCtxPushCurrent_v2);

CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext *pctx)
{
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && !stack_top())
        r = CUDA_ERROR_INVALID_CONTEXT;
    if (r == CUDA_SUCCESS) {
        CUcontext c = stack_pop();
        if (pctx)
            *pctx = c;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx) EMU_OLD_ABI_OF(cuCtxPopCurrent_v2);

/* ctx NULL means the current context, as in the _v2 entry points. */
static CUresult ctx_or_current(CUcontext ctx, CUcontext *out)
{
    if (!ctx)
        return emu_ctx_current(out);
    CUresult r = check_init_ctx(ctx);
    if (r == CUDA_SUCCESS)
        *out = ctx;
    return r;
}

static CUresult ctx_get_device(CUdevice *device, CUcontext ctx)
{
    emu_lock();
    CUcontext c = NULL;
    CUresult r = ctx_or_current(ctx, &c);
    if (r == CUDA_SUCCESS && !device)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *device = c->dev;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    return ctx_get_device(device, NULL);
}

CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    return ctx_get_device(device, ctx);
}

static CUresult ctx_synchronize(CUcontext ctx)
{
    emu_lock();
    CUcontext c = NULL;
    CUresult r = ctx_or_current(ctx, &c);
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_ctx_sync(c);
    if (r == CUDA_SUCCESS)
        emu_ctx_host_wait(c);
    emu_unlock();
    if (r == CUDA_SUCCESS)
        emu_san_synchronized(c, NULL, NULL, true);
    return r;
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
    return ctx_synchronize(NULL);
}

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx)
{
    return ctx_synchronize(ctx);
}

CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    emu_lock();
    CUcontext c = NULL;
    CUresult r = ctx_or_current(ctx, &c);
    if (r == CUDA_SUCCESS && !ctxId)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *ctxId = c->id;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxGetFlags(unsigned int *flags)
{
    emu_lock();
    CUcontext c = NULL;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS && !flags)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *flags = c->flags;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    emu_lock();
    CUcontext c = NULL;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS) {
        if (leastPriority)
            *leastPriority = EMU_LEAST_PRIORITY;
        if (greatestPriority)
            *greatestPriority = EMU_GREATEST_PRIORITY;
    }
    emu_unlock();
    return r;
}
