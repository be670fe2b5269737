/* SPDX-License-Identifier: Apache-2.0 */
/* kernel.c - modules, functions and kernel launches.
 *
 * The emulator cannot run device code, so a test registers, before it
 * loads a module, the CPU function that stands for each kernel with its
 * parameter layout (sgemu_kernel_register, sgemu.h).  cuModuleLoadData
 * accepts any image; cuModuleGetFunction finds the registered kernel of
 * that name.  A launch copies the parameters into a buffer laid out as
 * cuFuncGetParamInfo says (the driver reads them at the call, so the
 * caller may reuse its memory at once) and enqueues one operation that
 * calls the CPU function once, for the whole grid, on the stream's worker
 * in stream order.  The function reaches memory through sgemu_dev_read
 * and sgemu_dev_write, like a device: host memory by DMA, ignoring page
 * protection. */
#include "emu.h"

#include <stdlib.h>
#include <string.h>

#include "learn/sanitizer_api.h"
#include "sgemu.h"

#define MAX_PARAMS 32
#define MAX_ARGBUF 4096     /* CUDA 12.1+ allows 32 KiB of parameters; tests need less */

/* A kernel a test registered: its CPU function and parameter layout. */
typedef struct emu_kernel {
    char *name;
    sgemu_kernel_fn fn;
    unsigned nparams;
    size_t offset[MAX_PARAMS], size[MAX_PARAMS];
    size_t argbytes;        /* end of the last parameter */
    struct emu_kernel *next;
} emu_kernel;

/* The emulator's CUfunction: a registered kernel as one module holds it.
 * Never freed (a stale handle is caught, not read after free). */
struct CUfunc_st {
    const emu_kernel *k;    /* NULL: its module is gone */
    CUmodule module;        /* the module that gave it out */
    CUfunction next;        /* in its module's list, or in the free list */
};

static CUmodule emu_function_module(CUfunction f)
{
    return f->module;
}

struct CUmod_st {
    bool loaded;            /* never reused: a later use is caught */
    CUcontext ctx;
    CUfunction functions;
    CUmodule next_all;
};

static emu_kernel *kernels;         /* registered, never freed (launches keep them) */
static CUmodule all_modules;
static CUfunction free_functions;   /* last freed first */

void sgemu_kernel_register(const char *name, sgemu_kernel_fn fn, unsigned nparams,
                           const size_t *offsets, const size_t *sizes)
{
    if (!name || !fn || nparams > MAX_PARAMS)
        emu_fatal("sgemu_kernel_register: bad kernel %s", name ? name : "(null)");
    emu_kernel *k = emu_xcalloc(1, sizeof *k);
    k->name = strdup(name);
    if (!k->name)
        emu_fatal("out of memory");
    k->fn = fn;
    k->nparams = nparams;
    for (unsigned i = 0; i < nparams; i++) {
        k->offset[i] = offsets[i], k->size[i] = sizes[i];
        if (offsets[i] + sizes[i] > k->argbytes)
            k->argbytes = offsets[i] + sizes[i];
    }
    if (k->argbytes > MAX_ARGBUF)
        emu_fatal("sgemu_kernel_register: %s takes too many parameter bytes", name);
    emu_lock();
    k->next = kernels;
    kernels = k;
    emu_unlock();
}

/* The kernel a function handle names, or NULL for a handle of an unloaded
 * module (lock held). */
static const emu_kernel *kernel_of(CUfunction f)
{
    return f ? f->k : NULL;
}

/* ---- memory as a kernel reaches it ---------------------------------------- */

/* Whether [addr, addr+n) is reached by DMA: host memory, and managed
 * memory (which the host may have protected); other device memory is the
 * emulator's own. */
static bool dev_host(uintptr_t addr, size_t n)
{
    emu_lock();
    emu_where w = emu_mem_where(addr, n);
    bool managed = emu_mem_managed(addr);
    emu_unlock();
    if (w == EMU_BAD)
        emu_fatal("kernel access to %#lx+%zu runs past a device allocation", (unsigned long)addr, n);
    return w != EMU_DEVICE || managed;
}

void sgemu_dev_read(void *dst, CUdeviceptr src, size_t n)
{
    emu_san_access((uintptr_t)src, n, SG_SAN_MEMORY_READ, dst);
    if (dev_host((uintptr_t)src, n))
        emu_dma_read(dst, (uintptr_t)src, n);
    else
        memcpy(dst, (const void *)(uintptr_t)src, n);
}

void sgemu_dev_write(CUdeviceptr dst, const void *src, size_t n)
{
    emu_san_access((uintptr_t)dst, n, SG_SAN_MEMORY_WRITE, src);
    if (dev_host((uintptr_t)dst, n))
        emu_dma_write((uintptr_t)dst, src, n);
    else
        memcpy((void *)(uintptr_t)dst, src, n);
}

unsigned sgemu_dev_atomic_add(CUdeviceptr p, unsigned v, int system_scope)
{
    /* An atomic is a write without a new value (the API's convention). */
    emu_san_access((uintptr_t)p, sizeof v, SG_SAN_MEMORY_WRITE | (system_scope ? SG_SAN_MEMORY_ATOMSYS : 0),
                   NULL);
    static pthread_mutex_t atomics = PTHREAD_MUTEX_INITIALIZER;
    unsigned old;
    pthread_mutex_lock(&atomics); /* one at a time, as the device's atomics are */
    if (dev_host((uintptr_t)p, sizeof v)) {
        emu_dma_read(&old, (uintptr_t)p, sizeof old);
        unsigned sum = old + v;
        emu_dma_write((uintptr_t)p, &sum, sizeof sum);
    } else {
        old = __atomic_fetch_add((unsigned *)(uintptr_t)p, v, __ATOMIC_SEQ_CST);
    }
    pthread_mutex_unlock(&atomics);
    return old;
}

/* ---- modules and functions ------------------------------------------------ */

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS) {
        /* A real driver's load waits for every piece of the context's work
         * (measured on the H200: a load behind a held stream never returned,
         * tests/gpu/RESULTS.md run 27); a test that loads behind a hold
         * hangs here as it would on the GPU. */
        emu_ctx_host_wait(c);
        CUmodule m = emu_xcalloc(1, sizeof *m);
        m->loaded = true;
        m->ctx = c;
        m->next_all = all_modules;
        all_modules = m;
        *module = m;
    }
    emu_unlock();
    if (r == CUDA_SUCCESS) /* a PTX text, as the tests' images are: its bytes with the NUL */
        emu_san_module_loaded(c, *module, image, strlen(image) + 1);
    return r;
}

CUcontext emu_module_ctx(CUmodule m)
{
    return m ? m->ctx : NULL;
}

/* The module's function handles go to the free list (lock held). */
static void module_unload(CUmodule m)
{
    CUfunction next;
    for (CUfunction f = m->functions; f; f = next) {
        next = f->next;
        f->k = NULL;
        f->next = free_functions;
        free_functions = f;
    }
    m->functions = NULL;
    m->loaded = false;
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
    emu_lock();
    bool loaded = hmod && hmod->loaded;
    CUcontext ctx = loaded ? hmod->ctx : NULL;
    emu_unlock();
    if (loaded)
        emu_san_module_unloading(ctx, hmod);
    emu_lock();
    CUresult r = hmod && hmod->loaded ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS)
        module_unload(hmod);
    emu_unlock();
    return r;
}

void emu_modules_drop_ctx(CUcontext ctx)
{
    for (CUmodule m = all_modules; m; m = m->next_all)
        if (m->loaded && m->ctx == ctx)
            module_unload(m);
}

/* The module's handle for kernel k: the one it gave before, else one from
 * the free list, else a new one (lock held). */
static CUfunction module_function(CUmodule m, const emu_kernel *k)
{
    CUfunction f = m->functions;
    while (f && f->k != k)
        f = f->next;
    if (f)
        return f;
    f = free_functions ? free_functions : emu_xcalloc(1, sizeof *f);
    if (f == free_functions)
        free_functions = f->next;
    f->k = k;
    f->module = m;
    f->next = m->functions;
    m->functions = f;
    return f;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && (!hmod || !hmod->loaded))
        r = CUDA_ERROR_INVALID_HANDLE;
    const emu_kernel *k = kernels;
    while (k && strcmp(k->name, name) != 0)
        k = k->next;
    if (r == CUDA_SUCCESS && !k)
        r = CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS)
        *hfunc = module_function(hmod, k);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuFuncGetName(const char **name, CUfunction hfunc)
{
    if (!name || !hfunc)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    const emu_kernel *k = kernel_of(hfunc);
    if (k)
        *name = k->name;
    emu_unlock();
    return k ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                                    size_t *paramSize)
{
    /* SGEMU_NO_PARAM_INFO=1: a driver that cannot say (read at each call). */
    const char *no = getenv("SGEMU_NO_PARAM_INFO");
    if (no && strcmp(no, "1") == 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (!func || !paramOffset)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    const emu_kernel *k = kernel_of(func);
    CUresult r = !k ? CUDA_ERROR_INVALID_HANDLE
                    : paramIndex >= k->nparams ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (r == CUDA_SUCCESS) {
        *paramOffset = k->offset[paramIndex];
        if (paramSize)
            *paramSize = k->size[paramIndex];
    }
    emu_unlock();
    return r;
}

/* ---- launches ------------------------------------------------------------- */

typedef struct kernel_op {
    emu_op op;
    CUfunction f;
    const emu_kernel *k;    /* as at the launch: the handle may be freed meanwhile */
    unsigned char args[MAX_ARGBUF];
    /* A graph node's kernelParams as cuGraphKernelNodeGetParams gives them:
     * pointers into args, set when asked (a clone's point into the
     * original until then). */
    void *params[MAX_PARAMS];
    emu_san_patch san; /* a stream launch of a patched module (sanitizer.c) */
} kernel_op;

static void kernel_run(emu_op *op)
{
    kernel_op *k = (kernel_op *)op;
    emu_san_kernel_begin(&k->san);
    k->k->fn(k->args);
    emu_san_kernel_end();
}

static const emu_op_class kernel_class = { .node_type = CU_GRAPH_NODE_TYPE_KERNEL,
                                           .run = kernel_run };

/* The parameters as the kernel will see them: from kernelParams (one
 * pointer per parameter) or from extra's packed buffer, not both. */
static CUresult pack_args(const emu_kernel *f, void **params, void **extra, unsigned char *out)
{
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    if (params) {
        for (unsigned i = 0; i < f->nparams; i++)
            memcpy(out + f->offset[i], params[i], f->size[i]);
        return CUDA_SUCCESS;
    }
    const void *buf = NULL;
    size_t size = 0;
    for (void **e = extra; e && *e != CU_LAUNCH_PARAM_END; e += 2) {
        if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = e[1];
        else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = *(const size_t *)e[1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (f->nparams == 0)
        return CUDA_SUCCESS;
    if (!buf || size < f->argbytes)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(out, buf, f->argbytes);
    return CUDA_SUCCESS;
}

/* A launch's kernel operation, its parameters read now (lock held). */
CUresult emu_kernel_launch_op(CUfunction f, void **params, void **extra, emu_op **out)
{
    if (!kernel_of(f))
        return CUDA_ERROR_INVALID_HANDLE;
    kernel_op *k = emu_op_new(&kernel_class, sizeof *k);
    k->f = f;
    k->k = kernel_of(f);
    CUresult r = pack_args(k->k, params, extra, k->args);
    if (r != CUDA_SUCCESS) {
        emu_op_discard(&k->op);
        return r;
    }
    *out = &k->op;
    return CUDA_SUCCESS;
}

CUresult emu_kernel_check_dims(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
    if (!gx || !gy || !gz || !bx || !by || !bz || (unsigned long)bx * by * bz > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* The events a cuLaunchKernelEx launch records (its attributes): those
 * that fire when the kernel starts, recorded just before its operation
 * (all prior work of the stream done, the kernel about to run), and one
 * that fires when it ends. */
typedef struct launch_events {
    CUevent at_start[2];
    unsigned nstart;
    CUevent at_end;
} launch_events;

/* Submits the launch's record operations and its kernel, in stream order
 * (lock held); every operation is built before any is submitted. */
static CUresult submit_launch(CUstream s, emu_op *kernel, const launch_events *ev)
{
    emu_op *start[2] = { NULL, NULL }, *end = NULL;
    CUresult r = CUDA_SUCCESS;
    if (ev && emu_capturing(s))
        r = CUDA_ERROR_NOT_SUPPORTED; /* no programmatic edges in the emulator's graphs */
    for (unsigned i = 0; ev && r == CUDA_SUCCESS && i < ev->nstart; i++)
        r = emu_launch_event_op(ev->at_start[i], s, &start[i]);
    if (ev && r == CUDA_SUCCESS && ev->at_end)
        r = emu_launch_event_op(ev->at_end, s, &end);
    if (r != CUDA_SUCCESS) {
        for (unsigned i = 0; i < 2; i++)
            if (start[i])
                emu_op_discard(start[i]);
        emu_op_discard(kernel);
        return r;
    }
    uint64_t seq;
    for (unsigned i = 0; ev && i < ev->nstart; i++)
        emu_submit(s, start[i], &seq); /* cannot fail: the stream was checked, it is not capturing */
    r = emu_submit(s, kernel, &seq);
    if (end)
        emu_submit(s, end, &seq);
    return r;
}

static CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shmem, CUstream hs, void **params,
                       void **extra, const launch_events *ev, emu_null_stream null_means)
{
    (void)shmem;                /* a CPU function has no shared memory */
    if (!f)
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = emu_kernel_check_dims(gx, gy, gz, bx, by, bz);
    if (r != CUDA_SUCCESS)
        return r;
    emu_lock();
    CUstream s;
    emu_op *k = NULL;
    r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_enqueue(s);
    if (r == CUDA_SUCCESS)
        r = emu_kernel_launch_op(f, params, extra, &k);
    if (r == CUDA_SUCCESS && !emu_capturing(s)) {
        /* The API's launch callbacks run without the lock (the subscriber
         * calls the API back); the stream is not the program's to destroy
         * while it launches on it. */
        emu_san_launch_info info = { s->ctx, hs, s, f->k ? emu_function_module(f) : NULL, f,
                                     f->k ? f->k->name : NULL, { gx, gy, gz }, { bx, by, bz } };
        emu_unlock();
        emu_san_launch(&info, &((kernel_op *)k)->san);
        emu_lock();
    }
    if (r == CUDA_SUCCESS)
        r = submit_launch(s, k, ev);
    emu_unlock();
    return r;
}

#define LAUNCH_PARAMS                                                                         \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,          \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream hs, void **params,          \
     void **extra)
CUresult CUDAAPI cuLaunchKernel_ptsz LAUNCH_PARAMS;
EMU_NULL_STREAM_ABIS(cuLaunchKernel, cuLaunchKernel_ptsz, LAUNCH_PARAMS, launch, f, gx, gy, gz, bx,
                     by, bz, shmem, hs, params, extra, NULL)

#define COOPERATIVE_PARAMS                                                                    \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,          \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream hs, void **params)
CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz COOPERATIVE_PARAMS;
EMU_NULL_STREAM_ABIS(cuLaunchCooperativeKernel, cuLaunchCooperativeKernel_ptsz, COOPERATIVE_PARAMS,
                     launch, f, gx, gy, gz, bx, by, bz, shmem, hs, params, NULL, NULL)

/* The event attributes of a launch: CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT
 * fires "once all blocks of the kernel have begun execution";
 * CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT once every block has triggered
 * it, which each does at its start with triggerAtBlockStart, and else
 * (the emulator's kernels never call cudaTriggerProgrammaticLaunchCompletion)
 * by terminating.  Record flags other than the default are refused (the
 * driver does not accept CU_EVENT_RECORD_EXTERNAL there); other attributes
 * change nothing here. */
static CUresult launch_events_of(const CUlaunchConfig *cfg, launch_events *ev)
{
    *ev = (launch_events){ .nstart = 0 };
    for (unsigned i = 0; cfg->attrs && i < cfg->numAttrs; i++) {
        const CUlaunchAttribute *a = &cfg->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT) {
            if (a->value.launchCompletionEvent.flags != CU_EVENT_RECORD_DEFAULT || ev->nstart == 2)
                return CUDA_ERROR_INVALID_VALUE;
            ev->at_start[ev->nstart++] = a->value.launchCompletionEvent.event;
        } else if (a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT) {
            if (a->value.programmaticEvent.flags != CU_EVENT_RECORD_DEFAULT || ev->nstart == 2 || ev->at_end)
                return CUDA_ERROR_INVALID_VALUE;
            if (a->value.programmaticEvent.triggerAtBlockStart)
                ev->at_start[ev->nstart++] = a->value.programmaticEvent.event;
            else
                ev->at_end = a->value.programmaticEvent.event;
        }
    }
    return CUDA_SUCCESS;
}

static CUresult launch_ex(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra,
                          emu_null_stream null_means)
{
    if (!cfg || (cfg->numAttrs && !cfg->attrs))
        return CUDA_ERROR_INVALID_VALUE;
    launch_events ev;
    CUresult r = launch_events_of(cfg, &ev);
    if (r != CUDA_SUCCESS)
        return r;
    return launch(f, cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ, cfg->blockDimX, cfg->blockDimY,
                  cfg->blockDimZ, cfg->sharedMemBytes, cfg->hStream, params, extra,
                  ev.nstart || ev.at_end ? &ev : NULL, null_means);
}

#define LAUNCH_EX_PARAMS (const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
CUresult CUDAAPI cuLaunchKernelEx_ptsz LAUNCH_EX_PARAMS;
EMU_NULL_STREAM_ABIS(cuLaunchKernelEx, cuLaunchKernelEx_ptsz, LAUNCH_EX_PARAMS, launch_ex, cfg, f,
                     params, extra)

/* ---- graph kernel nodes --------------------------------------------------- */

/* A kernel node's template: the launch it enqueues at every graph launch,
 * with the parameters read now (lock held). */
CUresult emu_kernel_node_op(const CUDA_KERNEL_NODE_PARAMS *p, emu_op **out)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUfunction f = p->func ? p->func : (CUfunction)p->kern;
    if (!kernel_of(f))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = emu_kernel_check_dims(p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
                                       p->blockDimZ);
    return r == CUDA_SUCCESS ? emu_kernel_launch_op(f, p->kernelParams, p->extra, out) : r;
}

/* The parameters back, as the driver gives them: kernelParams (never
 * extra), pointing into the node's own copy (lock held). */
void emu_kernel_op_params(emu_op *op, CUDA_KERNEL_NODE_PARAMS *p)
{
    kernel_op *k = (kernel_op *)op;
    for (unsigned i = 0; i < k->k->nparams; i++)
        k->params[i] = k->args + k->k->offset[i];
    memset(p, 0, sizeof *p);
    p->func = k->f;
    p->gridDimX = p->gridDimY = p->gridDimZ = 1;
    p->blockDimX = p->blockDimY = p->blockDimZ = 1;
    p->kernelParams = k->params;
}
