/* SPDX-License-Identifier: Apache-2.0 */
/* Guarding what a kernel launch may write in host memory. The driver says
 * where each parameter lies (driver/kparams.c, cached per kernel); every
 * pointer-sized one whose value falls in a pinned allocation, by its host
 * address or its device alias (the same address under unified
 * addressing), has that whole allocation guarded, since a kernel may
 * write anywhere in it. A process with no pinned memory pays one atomic
 * load per launch. Pointers inside structs passed by value are not seen:
 * kernel_all_mapped guards every pinned allocation instead. An allocation
 * found to be a host-kernel signalling channel (fault/kernel_access.c) is
 * left alone: its flags are polled by one side while the other runs. */
#include "config.h"

#include <string.h>

#include "base/options.h"
#include "driver/kparams.h"
#include "learn/learn.h"
#include "work/kernel.h"
#include "life/site.h"
#include "model/model.h"

#define SNAPSHOT 64

/* The value of the j-th pointer-sized parameter, from kernelParams or
 * from the packed buffer of extra; 0 when it cannot be read. */
static int pointer_arg(void **params, void **extra, const struct sg_kparams *k, unsigned j,
                       uintptr_t *v)
{
    if (params) {
        memcpy(v, params[k->ptr_index[j]], sizeof *v);
        return 1;
    }
    const char *buf = NULL;
    size_t size = 0;
    for (void **e = extra; e && *e != CU_LAUNCH_PARAM_END; e += 2) {
        if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = e[1];
        else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = *(const size_t *)e[1];
    }
    if (!buf || k->ptr_offset[j] + sizeof *v > size)
        return 0;
    memcpy(v, buf + k->ptr_offset[j], sizeof *v);
    return 1;
}

unsigned sg_kernel_pointer_values(const struct sg_kparams *k, void **params, void **extra,
                                  uintptr_t *out)
{
    if (!params && !extra)
        return 0;
    for (unsigned j = 0; j < k->nptrs; j++)
        if (!pointer_arg(params, extra, k, j, &out[j]))
            out[j] = 0;
    return k->nptrs;
}

/* Guards [base, base+size) once per launch, however many arguments reach
 * it: the strongest guard any of them needs (the first that writes). */
static void guard_once(struct copy_call *call, uintptr_t *done, unsigned *ndone, uintptr_t base,
                       size_t size, int guard)
{
    for (unsigned i = 0; i < *ndone; i++)
        if (done[i] == base)
            return;
    if (*ndone < SG_KPARAMS_MAX_PTRS)
        done[(*ndone)++] = base;
    sg_copy_call_guard(call, base, sg_shape_linear(size), guard);
}

/* How the j-th argument's allocation is guarded: as the kernel's learnt
 * set says (-1: not at all), else as if written. */
static int guard_for(const struct sg_access_set *learnt, unsigned j)
{
    if (!learnt)
        return SG_GUARD_NO_ACCESS;
    switch (sg_access_use(learnt, j)) {
    case SG_USE_WRITES:
        return SG_GUARD_NO_ACCESS;
    case SG_USE_READS:
        return sg_opt.guard_sources ? SG_GUARD_READ_ONLY : -1;
    default:
        return -1;
    }
}

static void guard_all_pinned(struct copy_call *call)
{
    struct sg_pin pins[SNAPSHOT];
    size_t n;
    for (size_t from = 0; (n = sg_pinned_snapshot(from, pins, SNAPSHOT)) > 0; from += n)
        for (size_t i = 0; i < n; i++)
            sg_copy_call_guard(call, pins[i].base, sg_shape_linear(pins[i].size), SG_GUARD_NO_ACCESS);
}

static void (*guarded_hook)(void);

void sg_kernel_set_guarded_hook(void (*fn)(void))
{
    guarded_hook = fn;
}

void sg_kernel_guard(struct copy_call *call, const char *name, const uintptr_t *values, unsigned n,
                     const struct sg_access_set *learnt)
{
    call->kernel = name;
    call->origin = SG_ORIGIN_KERNEL;
    call->learnt = learnt != NULL;
    if (sg_opt.kernel_all_mapped && !learnt) {
        guard_all_pinned(call);
        if (guarded_hook)
            guarded_hook();
        return;
    }
    uintptr_t done[SG_KPARAMS_MAX_PTRS], base;
    unsigned ndone = 0;
    size_t size;
    /* Writers first, so that an allocation one argument writes and another
     * reads is guarded against every access. */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned j = 0; j < n; j++) {
            int guard = guard_for(learnt, j);
            if (guard < 0 || (guard == SG_GUARD_NO_ACCESS) != (pass == 0))
                continue;
            if (values[j] && sg_pinned_range_any(values[j], &base, &size) &&
                (learnt || !sg_pinned_is_channel(base)))
                guard_once(call, done, &ndone, base, size, guard);
        }
    if (ndone && guarded_hook)
        guarded_hook();
}

void sg_kernel_launching(struct sg_launch *l)
{
    if (!sg_learn_active() || !sg_opt.kernel_args)
        return;
    const struct sg_kparams *k = sg_kparams_of(l->f);
    uintptr_t values[SG_KPARAMS_MAX_PTRS];
    if (sg_kernel_pointer_values(k, l->params, l->extra, values) == k->nptrs)
        sg_learn_launch_prepare(l->f, k, values);
}

void sg_kernel_launch_returned(void)
{
    if (sg_learn_active()) /* every launch passes here: nothing more without learning */
        sg_learn_launch_done();
}

void sg_kernel_launched(const struct sg_launch *l)
{
    if (!sg_opt.kernel_args || !sg_pinned_any()) {
        if (sg_observe_needed())
            sg_note_stream_work(l->stream, l->per_thread);
        sg_devmem_after(&l->dev, 1);
        return;
    }
    const struct sg_access_set *learnt = sg_learn_set_of(l->f);
    if (!learnt && sg_learn_active() && !sg_opt.guess_unlearnt) {
        if (sg_observe_needed()) /* being learnt: no guess */
            sg_note_stream_work(l->stream, l->per_thread);
        sg_devmem_after(&l->dev, 1);
        return;
    }
    struct copy_call call;
    sg_copy_call_init(&call, l->api, l->stream, l->per_thread);
    const struct sg_kparams *k = sg_kparams_of(l->f);
    uintptr_t values[SG_KPARAMS_MAX_PTRS];
    unsigned n = sg_opt.kernel_all_mapped && !learnt ? 0
                                                    : sg_kernel_pointer_values(k, l->params, l->extra, values);
    sg_kernel_guard(&call, k->name, values, n, learnt);
    sg_copy_call_done(&call);
    sg_devmem_after(&l->dev, 1);
}

/* The join of what the listed streams hold now, and each stream ordered
 * after it. */
static void streams_wait_all(const CUDA_LAUNCH_PARAMS *list, unsigned n)
{
    struct sg_vc all = { 0 }, one = { 0 };
    sg_lock(&sg_model_lock);
    for (unsigned i = 0; i < n; i++) {
        sg_stream_snapshot(sg_stream_get(list[i].hStream, 0), &one);
        sg_vc_join(&all, &one);
    }
    for (unsigned i = 0; i < n; i++)
        sg_stream_wait_vc(sg_stream_get(list[i].hStream, 0), &all);
    sg_unlock(&sg_model_lock);
    sg_vc_free(&one), sg_vc_free(&all);
}

/* "By default, the kernel won't begin execution on any GPU until all prior
 * work in all the specified streams has completed" and "any subsequent
 * work pushed in any of the specified streams will not begin execution
 * until the kernels on all GPUs have completed", unless flags say
 * otherwise. The streams are the program's own (never a null stream). */
void sg_kernel_launched_multi(const CUDA_LAUNCH_PARAMS *list, unsigned n, unsigned flags)
{
    /* (Orderings matter only once a copy is guarded: the kernels may guard
     * the first, so the question is asked again after them.) */
    if (sg_observe_needed() && !(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC))
        streams_wait_all(list, n);
    for (unsigned i = 0; i < n; i++)
        sg_kernel_launched(&(struct sg_launch){ "cuLaunchCooperativeKernelMultiDevice", list[i].function,
                                                list[i].hStream, 0, list[i].kernelParams, NULL, { 0 } });
    if (sg_observe_needed() && !(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC))
        streams_wait_all(list, n);
}
