/* SPDX-License-Identifier: Apache-2.0 */
/* sanitizer.c - the emulator's Compute Sanitizer API: the functions of
 * src/learn/sanitizer_api.h, exported under NVIDIA's names, so that
 * syncguard, given this library as sanitizer_lib, learns the accesses of
 * the emulator's CPU kernels as it learns a GPU kernel's.
 *
 * As the API documents: one subscriber; callbacks only for the ids it
 * enabled, on the thread making the driver call, never with the
 * emulator's lock held (the subscriber calls back in); MODULE_LOADED after
 * a module load, with the image's bytes; MODULE_UNLOAD_STARTING before an
 * unload; LAUNCH_BEGIN inside a stream launch (cuLaunchKernel,
 * cuLaunchKernelEx, cuLaunchCooperativeKernel), before its operation is
 * enqueued, when sanitizerSetLaunchCallbackData may give it a record;
 * STREAM_ and CONTEXT_SYNCHRONIZED after those synchronizations returned.
 * Graph kernel nodes, captured launches and the multi-device and pre-4.0
 * launches get no launch callback (syncguard does not learn from them).
 * A patched module's launches run record.h's code, the CPU twin of the
 * device patch, for every sgemu_dev_read and sgemu_dev_write (one access
 * each: the whole range) and sgemu_dev_atomic_add. */
#include "emu.h"

#include <stdlib.h>
#include <string.h>

#include "learn/patch/record.h"
#include "learn/sanitizer_api.h"
#include "sgemu.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_CBIDS 16
#define MAX_MODULES 256
#define MAX_CTXS 16

static struct {
    sg_san_callback_fn fn;
    void *userdata;
    unsigned char on[16][MAX_CBIDS]; /* [domain][cbid] */
} sub;
static int subscribed;

/* Patch state per module: what it registered, whether patched. */
static struct {
    CUmodule module;
    bool access, block, patched;
} mods[MAX_MODULES];
static CUcontext patched_ctxs[MAX_CTXS];
static unsigned npatched_ctxs;

/* The launch whose LAUNCH_BEGIN is running on this thread, and the record
 * its subscriber gave it. */
static __thread struct {
    sg_san_launch handle;
    void *record;
} current_launch;
/* The record of the launch whose kernel runs on this thread (a worker). */
static __thread struct sg_rec *running;
static __thread bool running_access;
static unsigned long long launch_ids;

static bool enabled(int domain, uint32_t cbid)
{
    return subscribed && domain < 16 && cbid < MAX_CBIDS && sub.on[domain][cbid];
}

static void call(int domain, uint32_t cbid, const void *data)
{
    if (enabled(domain, cbid))
        sub.fn(sub.userdata, domain, cbid, data);
}

EXPORT sg_san_result sanitizerSubscribe(sg_san_subscriber *s, sg_san_callback_fn fn, void *ud)
{
    if (!s || !fn)
        return 1;
    if (subscribed)
        return SG_SAN_ERROR_MAX_LIMIT_REACHED;
    memset(&sub, 0, sizeof sub);
    sub.fn = fn, sub.userdata = ud;
    subscribed = 1;
    *s = (sg_san_subscriber)&sub;
    return SG_SAN_SUCCESS;
}

EXPORT sg_san_result sanitizerUnsubscribe(sg_san_subscriber s)
{
    if (s != (sg_san_subscriber)&sub || !subscribed)
        return 1;
    subscribed = 0;
    return SG_SAN_SUCCESS;
}

EXPORT sg_san_result sanitizerEnableCallback(uint32_t on, sg_san_subscriber s, int domain, uint32_t cbid)
{
    if (s != (sg_san_subscriber)&sub || domain <= 0 || domain >= 16)
        return 4; /* SANITIZER_ERROR_INVALID_DOMAIN_ID */
    if (cbid >= MAX_CBIDS)
        return 5; /* SANITIZER_ERROR_INVALID_CALLBACK_ID */
    sub.on[domain][cbid] = on != 0;
    return SG_SAN_SUCCESS;
}

EXPORT sg_san_result sanitizerGetResultString(sg_san_result r, const char **str)
{
    if (!str)
        return 1;
    *str = r == 0 ? "SANITIZER_SUCCESS" : r == 1 ? "SANITIZER_ERROR_INVALID_PARAMETER"
         : r == 10 ? "SANITIZER_ERROR_MAX_LIMIT_REACHED" : "SANITIZER_ERROR_UNKNOWN";
    return SG_SAN_SUCCESS;
}

/* ---- patching ---- */

/* Patching or unpatching inside a launch callback: the real driver's
 * sanitizerAddPatches then waits for ever on a lock it holds for the
 * launch (GPU run 41), and so did sanitizerUnpatchModule of the launched
 * kernel's module (run 42); the emulator refuses them
 * (SANITIZER_ERROR_INVALID_OPERATION), so that a test catches syncguard
 * doing it. */
static bool in_launch_callback(void)
{
    return current_launch.handle != NULL;
}

EXPORT sg_san_result sanitizerAddPatches(const void *image, CUcontext ctx)
{
    if (!image)
        return 1;
    if (in_launch_callback())
        return 6;
    emu_lock();
    if (!ctx)
        emu_ctx_current(&ctx);
    bool known = false;
    for (unsigned i = 0; i < npatched_ctxs; i++)
        known |= patched_ctxs[i] == ctx;
    if (!known && npatched_ctxs < MAX_CTXS)
        patched_ctxs[npatched_ctxs++] = ctx;
    emu_unlock();
    return SG_SAN_SUCCESS;
}

/* m's slot, made if new (lock held); NULL when the table is full. */
static int mod_slot(CUmodule m)
{
    int free_slot = -1;
    for (int i = 0; i < MAX_MODULES; i++) {
        if (mods[i].module == m)
            return i;
        if (!mods[i].module && free_slot < 0)
            free_slot = i;
    }
    if (free_slot >= 0)
        mods[free_slot].module = m;
    return free_slot;
}

EXPORT sg_san_result sanitizerPatchInstructions(int instruction, CUmodule module, const char *name)
{
    bool access = instruction == SG_SAN_INSTRUCTION_GLOBAL_MEMORY_ACCESS && name &&
                  strcmp(name, "sg_learn_access") == 0;
    bool block = instruction == SG_SAN_INSTRUCTION_BLOCK_ENTER && name &&
                 strcmp(name, "sg_learn_block_enter") == 0;
    if (!module || (!access && !block))
        return 1; /* no such device function among the patches */
    if (in_launch_callback())
        return 6;
    emu_lock();
    bool added = false;
    for (unsigned i = 0; i < npatched_ctxs; i++)
        added |= patched_ctxs[i] == emu_module_ctx(module);
    int at = added ? mod_slot(module) : -1;
    if (at >= 0)
        mods[at].access |= access, mods[at].block |= block;
    emu_unlock();
    return at >= 0 ? SG_SAN_SUCCESS : 1;
}

static sg_san_result set_patched(CUmodule module, bool patched)
{
    emu_lock();
    int at = module ? mod_slot(module) : -1;
    if (at >= 0)
        mods[at].patched = patched;
    emu_unlock();
    return at >= 0 ? SG_SAN_SUCCESS : 1;
}

EXPORT sg_san_result sanitizerPatchModule(CUmodule module)
{
    return in_launch_callback() ? 6 : set_patched(module, true);
}

EXPORT sg_san_result sanitizerUnpatchModule(CUmodule module)
{
    return in_launch_callback() ? 6 : set_patched(module, false);
}

EXPORT sg_san_result sanitizerSetLaunchCallbackData(sg_san_launch launch, CUfunction f, sg_san_stream s,
                                                    const void *ud)
{
    (void)f, (void)s;
    if (!launch || launch != current_launch.handle)
        return 1; /* only during that launch's LAUNCH_BEGIN */
    current_launch.record = (void *)ud;
    return SG_SAN_SUCCESS;
}

/* ---- memory: the emulator's device memory is host memory ---- */

EXPORT sg_san_result sanitizerAlloc(CUcontext ctx, void **p, size_t size)
{
    (void)ctx;
    if (!p || !(*p = aligned_alloc(16, (size + 15) & ~(size_t)15)))
        return 7; /* SANITIZER_ERROR_OUT_OF_MEMORY */
    memset(*p, 0, size);
    return SG_SAN_SUCCESS;
}

EXPORT sg_san_result sanitizerFree(CUcontext ctx, void *p)
{
    (void)ctx;
    free(p);
    return SG_SAN_SUCCESS;
}

/* Copied now: the API's asynchronous copy is only ever asked for during a
 * LAUNCH_BEGIN, for the record of the launch being enqueued, which no
 * earlier operation of the stream touches. */
EXPORT sg_san_result sanitizerMemcpyHostToDeviceAsync(void *dst, void *src, size_t n, sg_san_stream s)
{
    (void)s;
    memcpy(dst, src, n);
    return SG_SAN_SUCCESS;
}

/* Waits for the stream's work so far (the driver's own copy would follow
 * it), then copies. */
EXPORT sg_san_result sanitizerMemcpyDeviceToHost(void *dst, void *src, size_t n, sg_san_stream s)
{
    if (s) {
        emu_lock();
        emu_deps d = { 0 };
        emu_stream_capture((CUstream)s, &d);
        emu_host_wait(&d);
        emu_deps_clear(&d);
        emu_unlock();
    }
    memcpy(dst, src, n);
    return SG_SAN_SUCCESS;
}

/* ---- the emulator's side (emu.h) ---- */

void emu_san_module_loaded(CUcontext ctx, CUmodule m, const void *image, size_t size)
{
    struct sg_san_module_data d = { ctx, m, size, image, NULL };
    call(SG_SAN_DOMAIN_RESOURCE, SG_SAN_CBID_RESOURCE_MODULE_LOADED, &d);
}

void emu_san_module_unloading(CUcontext ctx, CUmodule m)
{
    struct sg_san_module_data d = { ctx, m, 0, NULL, NULL };
    call(SG_SAN_DOMAIN_RESOURCE, SG_SAN_CBID_RESOURCE_MODULE_UNLOAD_STARTING, &d);
    emu_lock();
    for (int i = 0; i < MAX_MODULES; i++)
        if (mods[i].module == m)
            memset(&mods[i], 0, sizeof mods[i]);
    emu_unlock();
}

void emu_san_launch(const emu_san_launch_info *l, emu_san_patch *out)
{
    *out = (emu_san_patch){ NULL, false, false };
    if (!subscribed)
        return;
    struct sg_san_launch_data d = {
        .context = l->ctx, .stream = l->stream, .hStream = (sg_san_stream)l->resolved,
        .module = l->module, .function = l->f, .functionName = l->name,
        .gridDim_x = l->grid[0], .gridDim_y = l->grid[1], .gridDim_z = l->grid[2],
        .blockDim_x = l->block[0], .blockDim_y = l->block[1], .blockDim_z = l->block[2],
        .clusterDim_x = 1, .clusterDim_y = 1, .clusterDim_z = 1,
        .gridId = __atomic_add_fetch(&launch_ids, 1, __ATOMIC_RELAXED),
        .hLaunch = (sg_san_launch)&d, .device = 0,
        .apiContext = l->ctx, .apiStream = l->stream, .hApiStream = (sg_san_stream)l->resolved,
    };
    current_launch.handle = d.hLaunch, current_launch.record = NULL;
    call(SG_SAN_DOMAIN_LAUNCH, SG_SAN_CBID_LAUNCH_BEGIN, &d);
    current_launch.handle = NULL;
    emu_lock();
    for (int i = 0; i < MAX_MODULES; i++)
        if (mods[i].module == l->module && mods[i].patched)
            *out = (emu_san_patch){ current_launch.record, mods[i].access, mods[i].block };
    emu_unlock();
    call(SG_SAN_DOMAIN_LAUNCH, SG_SAN_CBID_LAUNCH_END, &d);
}

void emu_san_synchronized(CUcontext ctx, CUstream stream, CUstream resolved, bool whole_context)
{
    struct sg_san_sync_data d = { ctx, whole_context ? NULL : stream,
                                  whole_context ? NULL : (sg_san_stream)resolved };
    call(SG_SAN_DOMAIN_SYNCHRONIZE,
         whole_context ? SG_SAN_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED : SG_SAN_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED,
         &d);
}

void emu_san_kernel_begin(const emu_san_patch *p)
{
    running = p->record ? (struct sg_rec *)p->record : NULL;
    running_access = running && p->access;
    if (running && p->block)
        sg_rec_block_began(running);
}

void emu_san_kernel_end(void)
{
    running = NULL;
    running_access = false;
}

void emu_san_access(uintptr_t addr, size_t n, unsigned flags, const void *new_value)
{
    if (running_access)
        sg_rec_access(running, addr, (unsigned)n, flags, new_value, 0);
}
