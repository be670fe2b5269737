/* SPDX-License-Identifier: Apache-2.0 */
/* A launch's device memory for devmem/: each pointer argument that its
 * kernel's learnt access set (learn/) says is read or written, over the
 * bytes learnt, relative to the argument's value. A kernel not learnt yet
 * (its first learn_launches launches, without the cache; or no Compute
 * Sanitizer API) is not seen: no guess, so no race is invented, and one in
 * those launches goes unseen. Arguments used to synchronize with the host
 * (system-scope atomics, polled flags) are left out. */
#include "config.h"

#include "base/options.h"
#include "driver/kparams.h"
#include "learn/access_set.h"
#include "learn/learn.h"
#include "model/copies.h"
#include "work/kernel.h"

void sg_kernel_devmem_before(struct sg_launch *l)
{
    sg_devmem_op_init(&l->dev, l->api, SG_ORIGIN_KERNEL, l->stream, l->per_thread);
    if (!sg_opt.device_races || !sg_opt.kernel_args)
        return;
    const struct sg_access_set *s = sg_learn_set_of(l->f);
    if (!s)
        return;
    const struct sg_kparams *k = sg_kparams_of(l->f);
    uintptr_t values[SG_KPARAMS_MAX_PTRS];
    unsigned n = sg_kernel_pointer_values(k, l->params, l->extra, values);
    l->dev.kernel = k->name;
    for (unsigned j = 0; j < n && j < s->nptrs; j++) {
        const struct sg_param_access *a = &s->p[j];
        if (!values[j] || a->lo >= a->hi || (a->bits & (SG_AX_ATOMSYS | SG_AX_POLL)))
            continue;
        int write = (a->bits & (SG_AX_WRITE | SG_AX_ATOMIC)) != 0;
        if (!write && !(a->bits & SG_AX_READ))
            continue;
        sg_devmem_op_add(&l->dev, (CUdeviceptr)(values[j] + (uintptr_t)a->lo),
                         (size_t)(a->hi - a->lo), write);
    }
    sg_devmem_before(&l->dev);
}
