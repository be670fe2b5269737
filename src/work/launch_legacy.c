/* SPDX-License-Identifier: Apache-2.0 */
/* The launch API before CUDA 4.0: cuParamSetSize and cuParamSeti,
 * cuParamSetf, cuParamSetv leave a kernel's parameters with its function,
 * at byte offsets the program lays out as the kernel declares them, and
 * cuLaunch, cuLaunchGrid and cuLaunchGridAsync launch what the function
 * holds. The driver has no call that gives the parameters back, so
 * syncguard keeps a copy of each function's buffer from the calls that
 * fill it, and reads a launch's parameters from there as it reads
 * cuLaunchKernel's packed buffer (extra): every launch is work on its
 * stream, and pinned memory it is given is guarded as for any launch. A
 * function launched with parameters syncguard did not see set (a buffer
 * larger than it keeps, or out of memory) is said once at verbosity 1,
 * and guards nothing. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "driver/kparams.h"
#include "work/kernel.h"
#include "model/model.h"

#define LEGACY_ARGBUF 4096 /* the legacy API's limit on a function's parameters */

struct legacy_params {
    CUfunction f;
    UT_hash_handle hh;
    size_t size;
    int lost; /* a set syncguard could not keep: the buffer is not known */
    unsigned char args[LEGACY_ARGBUF];
};

static sg_lock_t table_lock = SG_LOCK_INIT;
static struct legacy_params *table SG_GUARDED_BY(table_lock);

/* f's entry, made on first use; NULL when out of memory. table_lock held. */
SG_REQUIRES(table_lock) static struct legacy_params *entry(CUfunction f)
{
    struct legacy_params *p;
    HASH_FIND_PTR(table, &f, p);
    if (!p && (p = calloc(1, sizeof *p)) != NULL) {
        p->f = f;
        HASH_ADD_PTR(table, f, p);
    }
    return p;
}

void sg_legacy_param_size(CUfunction f, unsigned int size)
{
    sg_lock(&table_lock);
    struct legacy_params *p = entry(f);
    if (p)
        p->size = size, p->lost |= size > LEGACY_ARGBUF;
    sg_unlock(&table_lock);
}

void sg_legacy_param_set(CUfunction f, int offset, const void *bytes, unsigned int n)
{
    sg_lock(&table_lock);
    struct legacy_params *p = entry(f);
    if (p && offset >= 0 && (size_t)offset <= LEGACY_ARGBUF && n <= LEGACY_ARGBUF - (size_t)offset)
        memcpy(p->args + offset, bytes, n);
    else if (p)
        p->lost = 1;
    sg_unlock(&table_lock);
}

/* f's parameters as a launch reads them, into args; 0 if not known. */
static int params_of(CUfunction f, unsigned char *args, size_t *size)
{
    sg_lock(&table_lock);
    struct legacy_params *p;
    HASH_FIND_PTR(table, &f, p);
    int known = p && !p->lost;
    if (known) {
        *size = p->size;
        memcpy(args, p->args, p->size);
    }
    sg_unlock(&table_lock);
    return known;
}

static void say_unknown(const char *api, CUfunction f)
{
    SG_ONCE(SG_VLOG(1, "%s launched kernel %s with parameters syncguard did not see set through "
                       "cuParamSet*; pinned memory passed to it is not guarded (option "
                       "kernel_all_mapped guards every pinned allocation at each launch)\n",
                    api, sg_kparams_of(f)->name));
}

void sg_legacy_launched(const char *api, CUfunction f, CUstream s)
{
    unsigned char args[LEGACY_ARGBUF];
    size_t size = 0;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, args, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                      CU_LAUNCH_PARAM_END };
    int known = params_of(f, args, &size);
    if (!known && sg_opt.kernel_args && sg_pinned_any())
        say_unknown(api, f);
    sg_kernel_launched(&(struct sg_launch){ api, f, s, 0, NULL, known ? extra : NULL, { 0 } });
}

void sg_legacy_params_forget(void)
{
    struct legacy_params *p, *tmp;
    sg_lock(&table_lock);
    HASH_ITER(hh, table, p, tmp)
    {
        HASH_DEL(table, p);
        free(p);
    }
    sg_unlock(&table_lock);
}
