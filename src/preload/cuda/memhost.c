/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the pinned host memory family: allocation and registration make
 * a range pinned (its async copies get guarded); free and unregistration
 * end that, after releasing any guard still on the range.
 *
 * The driver packs small pinned allocations into shared pages (512-byte
 * steps, measured: tests/gpu/RESULTS.md run 13), and page-multiple ones
 * need not start on a page. A guard covers whole pages, so a copy into
 * one small buffer would make every access to its neighbours fault (each
 * single-stepped: a data loader filling the next labels next to the ones
 * being copied pays two signals and two mprotect calls per store). With
 * isolate_pinned, each allocation gets pages of its own: syncguard asks the
 * driver for the page-rounded size, plus a page for a small one (from the
 * pool), and hands the program the first page boundary in the block.
 * With huge_pinned, an allocation of a huge page or more is syncguard's
 * own registered memory instead (model/hugepin.c), pages of its own as well.
 *
 * The driver also takes pinned memory back without a call of this family:
 * when a context is torn down it frees the context's allocations and drops
 * its registrations (sg_memhost_ctx_gone). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/options.h"
#include "base/page.h"
#include "driver/driver.h"
#include "fault/access.h"
#include "guard/guard.h"
#include "model/model.h"
#include "model/hugepin.h"
#include "preload/cuda/memhost.h"
#include "preload/shim.h"

/* Registered memory keeps its protections (CU_MEMHOSTREGISTER_READ_ONLY
 * only says the device reads it), and syncguard must give the same back
 * when it opens a guard: each mapping's, as the program may have set them
 * page by page before registering. Read once per registration. */
static void keep_protections(void *p, size_t n)
{
    if (!p || !n)
        return;
    uintptr_t lo = sg_page_down((uintptr_t)p), hi = sg_page_up((uintptr_t)p + n);
    sg_lock(&sg_model_lock);
    sg_maps_record_prots(lo, hi);
    sg_unlock(&sg_model_lock);
}

/* [at, at+n) pinned now, in the current context; block is where the
 * driver put it (at may lie inside, isolate_pinned). */
static int pinned(uintptr_t at, size_t n, unsigned flags, void *block)
{
    struct sg_pin r = { at, n, flags, (uintptr_t)block, sg_current_ctx() };
    return sg_pinned_add(&r);
}

/* The driver call the program made: cuMemAllocHost or cuMemHostAlloc. */
static CUresult driver_alloc(int host_alloc, void **pp, size_t n, unsigned flags)
{
    return host_alloc ? SG_FORWARD(cuMemHostAlloc, pp, n, flags) : SG_FORWARD(cuMemAllocHost_v2, pp, n);
}

/* With isolate_pinned, the program gets a page boundary inside a padded
 * block and never sees the driver's address (free translates it back). A
 * large block the driver did not align keeps the driver's layout. */
static CUresult alloc_pinned(int host_alloc, void **pp, size_t n, unsigned flags)
{
    if (sg_hugepin_alloc(host_alloc, pp, n, flags) == CUDA_SUCCESS)
        return CUDA_SUCCESS;
    size_t asked = sg_opt.isolate_pinned ? sg_pinned_isolated_size(n) : 0;
    void *block = NULL;
    CUresult r = driver_alloc(host_alloc, &block, asked ? asked : n, flags);
    if (r == CUDA_ERROR_OUT_OF_MEMORY && asked) {
        /* The padding must never be what fails the program: its own size
         * then, in the driver's layout. */
        asked = 0;
        r = driver_alloc(host_alloc, &block, n, flags);
    }
    if (r != CUDA_SUCCESS || !block)
        return r;
    uintptr_t at = (uintptr_t)block;
    if (asked > sg_page_up(n))
        at = sg_page_up(at); /* the extra page leaves room for n after it */
    if (pinned(at, n, SG_PINNED_ALLOCATED, block) != 0)
        at = (uintptr_t)block; /* untracked: free could not translate it */
    *pp = (void *)at;
    return r;
}

SG_CUDA_SHIM(cuMemAllocHost_v2, (void **pp, size_t n))
{
    if (!pp || !n || !SG_ENTER())
        return SG_FORWARD(cuMemAllocHost_v2, pp, n);
    return alloc_pinned(0, pp, n, 0);
}

SG_CUDA_SHIM(cuMemHostAlloc, (void **pp, size_t n, unsigned int flags))
{
    if (!pp || !n || !SG_ENTER())
        return SG_FORWARD(cuMemHostAlloc, pp, n, flags);
    return alloc_pinned(1, pp, n, flags);
}

/* Whether p lies in one of syncguard's huge blocks: the program's
 * allocation, not memory it may register. */
static int in_huge_block(void *p)
{
    unsigned flags;
    return sg_pinned_lookup((uintptr_t)p, 1, &flags) && (flags & SG_PINNED_HUGE);
}

SG_CUDA_SHIM(cuMemHostRegister_v2, (void *p, size_t n, unsigned int flags))
{
    if (SG_ENTER() && in_huge_block(p))
        return sg_hugepin_refusal(0);
    CUresult r = SG_FORWARD(cuMemHostRegister_v2, p, n, flags);
    if (r == CUDA_SUCCESS && SG_ENTER() && p && n) {
        keep_protections(p, n);
        pinned((uintptr_t)p, n, 0, p);
    }
    return r;
}

/* The CUDA 4.0 ABI (the unversioned symbol; runtimes built for 4.0-6.0
 * ask for it), which cuda.h renames to the _v2 one. */
#undef cuMemHostRegister
SG_CUDA_SHIM(cuMemHostRegister, (void *p, size_t n, unsigned int flags))
{
    if (SG_ENTER() && in_huge_block(p))
        return sg_hugepin_refusal(0);
    CUresult r = SG_FORWARD(cuMemHostRegister, p, n, flags);
    if (r == CUDA_SUCCESS && SG_ENTER() && p && n) {
        keep_protections(p, n);
        pinned((uintptr_t)p, n, 0, p);
    }
    return r;
}

SG_CUDA_SHIM(cuMemFreeHost, (void *p))
{
    struct sg_pin gone;
    void *block = sg_access_unpin(p, SG_ENTER(), &gone);
    if (gone.flags & SG_PINNED_HUGE)
        return sg_hugepin_free(&gone);
    return SG_FORWARD(cuMemFreeHost, block);
}

/* The pinned flags of the range starting at p; 0 if none starts there. */
static unsigned range_at(void *p)
{
    uintptr_t base;
    unsigned flags = 0;
    if (p && sg_pinned_base((uintptr_t)p, &base) == 0 && base == (uintptr_t)p &&
        sg_pinned_lookup((uintptr_t)p, 1, &flags))
        return flags;
    return 0;
}

/* An allocation is not registered memory: the driver's answer for it, and
 * it stays pinned. One of syncguard's huge blocks is registered, which the
 * program must not learn (nor undo): the driver's answer for an allocation. */
SG_CUDA_SHIM(cuMemHostUnregister, (void *p))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuMemHostUnregister, p);
    unsigned flags = range_at(p);
    if (flags & SG_PINNED_HUGE)
        return sg_hugepin_refusal(1);
    if (!(flags & SG_PINNED_ALLOCATED)) {
        struct sg_pin gone;
        sg_access_unpin(p, 1, &gone); /* registered in place: the same address */
    }
    return SG_FORWARD(cuMemHostUnregister, p);
}

/* For a huge block, the driver's registration flags are not what the
 * program asked for: the answer the driver gives its own allocation. */
SG_CUDA_SHIM(cuMemHostGetFlags, (unsigned int *pflags, void *p))
{
    unsigned flags;
    if (pflags && SG_ENTER() && sg_pinned_lookup((uintptr_t)p, 1, &flags) && (flags & SG_PINNED_HUGE))
        return sg_hugepin_get_flags(flags, pflags);
    return SG_FORWARD(cuMemHostGetFlags, pflags, p);
}

/* The ranges pinned in ctx, or in a context syncguard does not know, into
 * *out (malloc'ed; as many as memory allows): read whole before any goes. */
static size_t pins_of(CUcontext ctx, struct sg_pin **out)
{
    struct sg_pin chunk[64];
    size_t n, kept = 0, cap = 0;
    *out = NULL;
    for (size_t from = 0; (n = sg_pinned_snapshot(from, chunk, 64)) > 0; from += n)
        for (size_t i = 0; i < n; i++) {
            if (chunk[i].ctx && chunk[i].ctx != ctx)
                continue;
            if (kept == cap) {
                size_t ncap = cap ? 2 * cap : 64;
                struct sg_pin *grown = realloc(*out, ncap * sizeof *grown);
                if (!grown)
                    return kept;
                *out = grown, cap = ncap;
            }
            (*out)[kept++] = chunk[i];
        }
    return kept;
}

/* A huge block of the torn-down context is gone as the driver's own
 * allocation would be. The driver is asked about every other range, for
 * it alone knows which of its registrations (PORTABLE ones, other
 * contexts') outlive the context: those it no longer knows are pageable
 * now, and an address a later mmap may reuse. */
static void forget_if_freed(const struct sg_pin *r, CUcontext ctx)
{
    int huge = (r->flags & SG_PINNED_HUGE) != 0;
    if (huge ? r->ctx != ctx : sg_host_still_pinned(r->base))
        return;
    struct sg_pin gone;
    sg_access_unpin((void *)r->base, 1, &gone);
    if (huge && gone.size)
        sg_hugepin_ctx_gone(&gone);
}

void sg_memhost_ctx_gone(CUcontext ctx)
{
    struct sg_pin *pins;
    size_t n = pins_of(ctx, &pins);
    for (size_t i = 0; i < n; i++)
        forget_if_freed(&pins[i], ctx);
    free(pins);
}
