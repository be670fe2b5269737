/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel parameter layouts, cached per function handle: the launch path
 * of a program that passes pinned memory to kernels must stay cheap, so
 * the driver is asked once per kernel and the answer is found again
 * without a lock (an open-addressing table whose entries are published
 * with one atomic store and never freed). An unload bumps a generation:
 * entries of an older one are asked again. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "driver/driver.h"
#include "driver/kparams.h"

#define SLOTS 16384 /* a power of two; 128 KiB of pointers */
#define NAME_MAX_LEN 255

struct entry {
    CUfunction f;
    unsigned gen;
    struct sg_kparams k;
};

static struct entry *_Atomic slots[SLOTS];
static atomic_uint generation;
static sg_lock_t insert_lock = SG_LOCK_INIT;

/* A parameter of f: through the function API, else the kernel API (a
 * CUkernel launched as a CUfunction). */
static CUresult param_info(CUfunction f, int as_kernel, size_t i, size_t *off, size_t *size)
{
    const struct sg_driver *d = sg_driver();
    if (as_kernel)
        return d->cuKernelGetParamInfo ? d->cuKernelGetParamInfo((CUkernel)f, i, off, size)
                                       : CUDA_ERROR_NOT_FOUND;
    return d->cuFuncGetParamInfo ? d->cuFuncGetParamInfo(f, i, off, size) : CUDA_ERROR_NOT_FOUND;
}

static const char *name_of(CUfunction f)
{
    const struct sg_driver *d = sg_driver();
    const char *name = NULL;
    if (!d->cuFuncGetName || d->cuFuncGetName(&name, f) != CUDA_SUCCESS || !name) {
        name = NULL;
        if (d->cuKernelGetName && d->cuKernelGetName(&name, (CUkernel)f) != CUDA_SUCCESS)
            name = NULL;
    }
    /* The driver's string lives as long as the module; ours for good. */
    char *copy = name ? strndup(name, NAME_MAX_LEN) : NULL;
    return copy ? copy : "<unnamed kernel>";
}

/* Parameter 0 of f, through either API: 1 when one answered; else *no_params
 * says whether the answer was "no such parameter" (a kernel without any). */
static int first_param(CUfunction f, int *as_kernel, int *no_params)
{
    size_t off, size;
    CUresult rf = param_info(f, 0, 0, &off, &size), rk = CUDA_SUCCESS;
    *as_kernel = 0;
    if (rf != CUDA_SUCCESS) {
        rk = param_info(f, 1, 0, &off, &size);
        *as_kernel = rk == CUDA_SUCCESS;
    }
    *no_params = rf == CUDA_ERROR_INVALID_VALUE || rk == CUDA_ERROR_INVALID_VALUE;
    return rf == CUDA_SUCCESS || rk == CUDA_SUCCESS;
}

static void say_undecodable(const struct sg_kparams *k, const char *why)
{
    SG_VLOG(1, "cannot decode the parameters of kernel %s (%s); pinned memory passed to it is "
               "not guarded (option kernel_all_mapped guards every pinned allocation at each "
               "launch)\n",
            k->name, why);
}

static void decode(CUfunction f, struct sg_kparams *k)
{
    size_t off, size;
    int as_kernel, no_params;
    if (!first_param(f, &as_kernel, &no_params)) {
        k->decoded = no_params;
        if (!no_params)
            say_undecodable(k, sg_driver()->cuFuncGetParamInfo
                                   ? "cuFuncGetParamInfo does not answer for it"
                                   : "the driver lacks cuFuncGetParamInfo, CUDA 12.4+");
        return;
    }
    k->decoded = 1;
    for (size_t i = 0; param_info(f, as_kernel, i, &off, &size) == CUDA_SUCCESS; i++) {
        k->nparams++;
        if (off + size > k->argbytes)
            k->argbytes = off + size;
        if (size != sizeof(void *))
            continue;
        if (k->nptrs == SG_KPARAMS_MAX_PTRS) {
            k->decoded = 0, k->nptrs = 0; /* more than we keep: say so, look at none */
            say_undecodable(k, "more than 64 pointer-sized parameters");
            return;
        }
        k->ptr_index[k->nptrs] = (uint16_t)i;
        k->ptr_offset[k->nptrs++] = (uint32_t)off;
    }
}

static struct entry *lookup(CUfunction f, unsigned gen, unsigned *free_slot)
{
    unsigned h = (unsigned)(((uintptr_t)f >> 4) * 2654435761u) & (SLOTS - 1);
    for (unsigned i = 0; i < SLOTS; i++) {
        unsigned at = (h + i) & (SLOTS - 1);
        struct entry *e = atomic_load_explicit(&slots[at], memory_order_acquire);
        if (!e) {
            *free_slot = at;
            return NULL;
        }
        if (e->f == f && e->gen == gen)
            return e;
        if (e->gen != gen) { /* stale: its slot is reused */
            *free_slot = at;
            if (e->f == f)
                return NULL;
        }
    }
    *free_slot = SLOTS;
    return NULL;
}

const struct sg_kparams *sg_kparams_of(CUfunction f)
{
    unsigned gen = atomic_load_explicit(&generation, memory_order_acquire), at;
    struct entry *e = lookup(f, gen, &at);
    if (e)
        return &e->k;
    /* No room (more kernels than slots), or no memory: such kernels are
     * not decoded, rather than asked and allocated for at every launch. */
    static struct sg_kparams unknown = { "<kernel: not looked at>", 0, 0, 0, 0, { 0 }, { 0 } };
    if (at == SLOTS) {
        SG_WARN_ONCE("more than %d kernels launched: the parameters of the others are not "
                     "decoded, pinned memory passed to them is not guarded\n",
                     SLOTS);
        return &unknown;
    }
    e = calloc(1, sizeof *e);
    if (!e)
        return &unknown;
    e->f = f, e->gen = gen;
    e->k.name = name_of(f);
    decode(f, &e->k);
    sg_lock(&insert_lock);
    struct entry *again = lookup(f, gen, &at);
    if (again) {
        sg_unlock(&insert_lock);
        return &again->k; /* another thread was first; e is kept (a few bytes, once) */
    }
    /* A stale entry replaced here may still be read by a thread that
     * found it a moment ago: it is left allocated. */
    if (at < SLOTS)
        atomic_store_explicit(&slots[at], e, memory_order_release);
    sg_unlock(&insert_lock);
    return &e->k; /* filled meanwhile: kept by the caller's copies, asked again next time */
}

void sg_kparams_forget(void)
{
    atomic_fetch_add(&generation, 1);
}
