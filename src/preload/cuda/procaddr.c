/* SPDX-License-Identifier: Apache-2.0 */
/* The cuGetProcAddress hook. A look-up names a base function, a CUDA
 * version and per-thread-stream flags; the driver answers with one ABI
 * variant of it. syncguard asks the real driver first, works out which
 * variant the answer is, and substitutes its wrapper for that variant. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/dl.h"
#include "base/log.h"
#include "base/options.h"
#include "base/self.h"
#include "driver/driver.h"
#include "preload/shim.h"

typedef CUresult (*getproc_v1_fn)(const char *, void **, int, cuuint64_t);
typedef CUresult (*getproc_v2_fn)(const char *, void **, int, cuuint64_t,
                                  CUdriverProcAddressQueryResult *);

static getproc_v1_fn _Atomic real_v1;
static getproc_v2_fn _Atomic real_v2;

void sg_procaddr_offer_real(int abi, void *fn)
{
    if (!fn || sg_self_contains((uintptr_t)fn))
        return;
    if (abi == 1)
        atomic_store(&real_v1, (getproc_v1_fn)fn);
    else
        atomic_store(&real_v2, (getproc_v2_fn)fn);
}

static CUresult CUDAAPI hook_v1(const char *, void **, int, cuuint64_t);
static CUresult CUDAAPI hook_v2(const char *, void **, int, cuuint64_t,
                                CUdriverProcAddressQueryResult *);

void *sg_procaddr_v1_hook(void)
{
    return (void *)hook_v1;
}

void *sg_procaddr_v2_hook(void)
{
    return (void *)hook_v2;
}

/* The variant a request picks by our table: the right stream flavour, the
 * highest version not above the one asked for. */
static int pick_by_version(const char *base, int version, int per_thread)
{
    int best = -1;
    for (int i = 0; i < SG_E_COUNT; i++) {
        const struct sg_entry *e = &sg_entries[i];
        if (e->per_thread != per_thread || e->version > version || strcmp(e->base, base))
            continue;
        if (best < 0 || e->version > sg_entries[best].version)
            best = i;
    }
    return best;
}

/* The exported name whose address the driver gave, among the names that
 * can stand for base: base, base_v2.._v4, each plain, _ptsz or _ptds. */
static int identify_exported(const char *base, void *real, char *name, size_t len)
{
    static const char *const versions[] = { "", "_v2", "_v3", "_v4" };
    static const char *const flavours[] = { "", "_ptsz", "_ptds" };
    void *lib = sg_libcuda();
    if (!lib)
        return 0;
    for (size_t v = 0; v < SG_ARRAY_SIZE(versions); v++)
        for (size_t f = 0; f < SG_ARRAY_SIZE(flavours); f++) {
            snprintf(name, len, "%s%s%s", base, versions[v], flavours[f]);
            if (sg_real_dlsym(lib, name) == real)
                return 1;
        }
    return 0;
}

static int entry_by_symbol(const char *symbol)
{
    for (int i = 0; i < SG_E_COUNT; i++)
        if (strcmp(sg_entries[i].symbol, symbol) == 0)
            return i;
    return -1;
}

/* The entry whose exported driver function is at addr, or -1. */
static int entry_by_address(void *addr)
{
    void *lib = sg_libcuda();
    for (int i = 0; lib && i < SG_E_COUNT; i++)
        if (sg_real_dlsym(lib, sg_entries[i].symbol) == addr)
            return i;
    return -1;
}

void *sg_wrapper_for_symbol(const char *symbol, void *real)
{
    int id = entry_by_symbol(symbol);
    if (id < 0)
        return NULL;
    sg_real_offer((enum sg_entry_id)id, real);
    return sg_entry_wrappers[id];
}

void *sg_wrapper_for_request(const char *base, void *real, int version, cuuint64_t flags)
{
    if (strcmp(base, "cuGetProcAddress") == 0) {
        sg_procaddr_offer_real(version >= 12000 ? 2 : 1, real);
        return version >= 12000 ? (void *)hook_v2 : (void *)hook_v1;
    }
    int per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    SG_VLOG(3, "cuGetProcAddress(%s, version %d, flags %llu)\n", base, version,
            (unsigned long long)flags);
    int id = pick_by_version(base, version, per_thread);
    if (id < 0)
        return real; /* not a function we track, or an ABI older than we know */
    char name[128] = "";
    /* Trust the driver's answer over our table: if it is an exported
     * function, wrap exactly that one (base names can alias another
     * function: cuGraphInstantiate is cuGraphInstantiateWithFlags), or none
     * if we do not know it. Only an answer that is no exported function at
     * all is taken to be the variant our table picked. */
    int known = entry_by_address(real);
    if (known >= 0)
        id = known;
    else if (identify_exported(base, real, name, sizeof name))
        id = -1; /* an exported function not in the table (the table's would match above) */
    if (id < 0) {
        SG_VLOG(1, "%s (version %d, flags %llu) answered with %s, which syncguard does not "
                   "track\n",
                base, version, (unsigned long long)flags, name);
        return real;
    }
    sg_real_offer((enum sg_entry_id)id, real);
    return sg_entry_wrappers[id];
}

/* The driver's own cuGetProcAddress (NAME) in libcuda; NULL when there is
 * no driver. */
static void *real_getproc(const char *name)
{
    void *lib = sg_libcuda();
    return lib ? sg_real_dlsym(lib, name) : NULL;
}

/* After the driver answered a look-up: hand back syncguard's wrapper for
 * the variant it gave (outside syncguard only). */
static CUresult substitute(CUresult r, const char *symbol, void **pfn, int version,
                           cuuint64_t flags)
{
    if (r == CUDA_SUCCESS && pfn && *pfn && symbol && !sg_in_syncguard) {
        sg_init();
        *pfn = sg_wrapper_for_request(symbol, *pfn, version, flags);
    }
    return r;
}

static CUresult CUDAAPI hook_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                CUdriverProcAddressQueryResult *status)
{
    getproc_v2_fn real = atomic_load(&real_v2);
    if (!real) {
        if (!(real = (getproc_v2_fn)real_getproc("cuGetProcAddress_v2")))
            return CUDA_ERROR_NOT_FOUND;
        atomic_store(&real_v2, real);
    }
    return substitute(real(symbol, pfn, version, flags, status), symbol, pfn, version, flags);
}

static CUresult CUDAAPI hook_v1(const char *symbol, void **pfn, int version, cuuint64_t flags)
{
    getproc_v1_fn real = atomic_load(&real_v1);
    if (!real) {
        if (!(real = (getproc_v1_fn)real_getproc("cuGetProcAddress")))
            return CUDA_ERROR_NOT_FOUND;
        atomic_store(&real_v1, real);
    }
    return substitute(real(symbol, pfn, version, flags), symbol, pfn, version, flags);
}

/* Programs linked with -lcuda that call cuGetProcAddress directly. */
SG_CUDA_SHIM(cuGetProcAddress_v2, (const char *symbol, void **pfn, int version,
                                               cuuint64_t flags,
                                               CUdriverProcAddressQueryResult *status))
{
    return hook_v2(symbol, pfn, version, flags, status);
}
