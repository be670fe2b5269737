/* SPDX-License-Identifier: Apache-2.0 */
/* Loaded modules (learn/learn_int.h): the key of each one's image, and its
 * instrumentation. A module is patched only while one of its functions is
 * being learnt: a patched kernel calls the patch at every global memory
 * access even when its launch has no record (about 2.2x the time of a
 * PyTorch step with every module patched; 1.02x once unpatched: GPU facts,
 * Compute Sanitizer API). The patch (learn/patch_image.h) is added once per
 * context, as the API requires.
 *
 * Patching happens only when the module loads (the API's MODULE_LOADED
 * callback, as NVIDIA's MemoryTracker sample does): from inside a launch
 * callback, sanitizerAddPatches waits on a lock the driver holds for the
 * launch, for ever (GPU run 41), and so did sanitizerUnpatchModule inside
 * the launch callback of one of the module's own kernels (GPU run 42). So
 * a module is patched at its load, and unpatched once none of its
 * functions is being learnt, right after a launch's driver call returned,
 * outside any callback: at once for a module the cache knew, after its first
 * SG_LEARN_GRACE launches for a new one, so that the functions launched
 * early are all seen. A function first launched after that is not learnt
 * in this run (it is guessed about, as kernel_args says). */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/log.h"
#include "learn/learn_int.h"
#include "learn/patch_image.h"

static struct sg_learn_module *modules;

/* Contexts the patch was added to (few: one per device, as a rule). */
#define MAX_PATCHED_CTXS 64
static CUcontext patched_ctxs[MAX_PATCHED_CTXS];
static unsigned npatched_ctxs;

struct sg_learn_module *sg_learn_module_of(CUmodule m)
{
    for (struct sg_learn_module *it = modules; it; it = it->next)
        if (it->loaded && it->module == m)
            return it;
    return NULL;
}

struct sg_learn_module *sg_learn_module_loaded(CUmodule m, CUcontext ctx, struct sg_module_key key,
                                              int known)
{
    struct sg_learn_module *it = sg_learn_module_of(m);
    if (it) /* a handle reused without the unload seen */
        it->loaded = 0;
    it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    it->module = m, it->ctx = ctx, it->key = key, it->loaded = 1;
    it->launches_left = known ? 0 : SG_LEARN_GRACE;
    it->next = modules;
    modules = it;
    return it;
}

void sg_learn_module_unloading(struct sg_learn_module *m)
{
    m->loaded = 0, m->patched = 0;
}

static void forget_patched_ctx(CUcontext ctx)
{
    for (unsigned i = 0; i < npatched_ctxs; i++)
        if (patched_ctxs[i] == ctx) {
            patched_ctxs[i] = patched_ctxs[--npatched_ctxs];
            return;
        }
}

void sg_learn_context_destroying(CUcontext ctx)
{
    for (struct sg_learn_module *it = modules; it; it = it->next)
        if (it->ctx == ctx)
            it->loaded = 0, it->patched = 0;
    forget_patched_ctx(ctx);
}

static int add_patch_to(CUcontext ctx)
{
    for (unsigned i = 0; i < npatched_ctxs; i++)
        if (patched_ctxs[i] == ctx)
            return 1;
    if (npatched_ctxs == MAX_PATCHED_CTXS)
        return 0;
    sg_san_result r = sg_san.sanitizerAddPatches(sg_learn_patch_image, ctx);
    if (r != SG_SAN_SUCCESS) {
        SG_WARN_ONCE("cannot add the learning patch to a CUDA context (%s): kernels' accesses "
                     "are not learnt there\n",
                     sg_san_error(r));
        return 0;
    }
    patched_ctxs[npatched_ctxs++] = ctx;
    return 1;
}

int sg_learn_module_patch(struct sg_learn_module *m)
{
    if (m->patched || m->unpatched)
        return m->patched;
    if (!add_patch_to(m->ctx))
        return 0;
    sg_san_result r = sg_san.sanitizerPatchInstructions(SG_SAN_INSTRUCTION_GLOBAL_MEMORY_ACCESS,
                                                        m->module, "sg_learn_access");
    if (r == SG_SAN_SUCCESS)
        r = sg_san.sanitizerPatchInstructions(SG_SAN_INSTRUCTION_BLOCK_ENTER, m->module,
                                              "sg_learn_block_enter");
    if (r == SG_SAN_SUCCESS)
        r = sg_san.sanitizerPatchModule(m->module);
    if (r != SG_SAN_SUCCESS) {
        SG_VLOG(1, "cannot instrument a module for learning (%s): its kernels are guarded as "
                   "kernel_args says\n",
                sg_san_error(r));
        return 0;
    }
    m->patched = 1;
    return 1;
}

static atomic_int unpatches_wanted;

void sg_learn_module_settle(struct sg_learn_module *m)
{
    if (!m->patched || m->unpatch_wanted || m->learning > 0 || m->launches_left > 0)
        return;
    m->unpatch_wanted = 1;
    atomic_fetch_add(&unpatches_wanted, 1);
}

/* Unpatches one module, the lock not held: the call may wait on a lock of
 * the driver's that another thread holds while its callback waits for
 * ours. */
static void unpatch(CUmodule module)
{
    sg_san_result r = sg_san.sanitizerUnpatchModule(module);
    if (r != SG_SAN_SUCCESS)
        SG_VLOG(1, "cannot remove the learning patch from a module (%s): its kernels stay slower\n",
                sg_san_error(r));
}

void sg_learn_modules_unpatch_now(void)
{
    if (atomic_load_explicit(&unpatches_wanted, memory_order_relaxed) == 0)
        return;
    CUmodule todo[16];
    unsigned n = 0;
    sg_lock(&sg_learn_lock);
    for (struct sg_learn_module *it = modules; it && n < 16; it = it->next)
        if (it->unpatch_wanted) {
            it->unpatch_wanted = 0;
            atomic_fetch_sub(&unpatches_wanted, 1);
            if (it->patched && it->loaded)
                todo[n++] = it->module;
            it->patched = 0;
            it->unpatched = 1; /* never patched again: that is only possible at its load */
        }
    sg_unlock(&sg_learn_lock);
    for (unsigned i = 0; i < n; i++)
        unpatch(todo[i]);
}
