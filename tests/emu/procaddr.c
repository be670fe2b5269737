/* SPDX-License-Identifier: Apache-2.0 */
/* procaddr.c - cuGetProcAddress (both ABIs) and cuGetExportTable.
 *
 * Runtimes find the driver with dlopen("libcuda.so.1") and dlsym of
 * "cuGetProcAddress_v2", then ask it for every function by base name and
 * CUDA version.  The answer is the newest ABI variant not newer than the
 * version asked for; with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM the
 * per-thread variant when there is one, else the legacy one.
 * CU_GET_PROC_ADDRESS_DEFAULT means legacy: only the caller's compiler
 * knows better, and cuda.h's inline wrapper sets the flag when it does.
 */
#include "proctable.h"

#include <string.h>

typedef struct proc_query {
    const char *name;
    int version;
    emu_proc_flavour flavour;
    bool name_seen;             /* some variant has this name */
} proc_query;

static const emu_proc *newest_fitting(proc_query *q)
{
    const emu_proc *best = NULL;
    for (size_t i = 0; i < emu_nprocs; i++) {
        const emu_proc *p = &emu_procs[i];
        if (strcmp(p->name, q->name) != 0)
            continue;
        q->name_seen = true;
        if (p->flavour == q->flavour && p->version <= q->version && (!best || p->version > best->version))
            best = p;
    }
    return best;
}

static CUresult lookup(const char *symbol, void **pfn, int version, cuuint64_t flags,
                       CUdriverProcAddressQueryResult *status)
{
    const cuuint64_t known = CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    if (!symbol || !pfn || (flags & ~known) || version > EMU_DRIVER_VERSION)
        return CUDA_ERROR_INVALID_VALUE;
    proc_query q = { symbol, version, EMU_PROC_PER_THREAD, false };
    const emu_proc *p = NULL;
    if (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
        p = newest_fitting(&q);
    if (!p) {
        q.flavour = EMU_PROC_LEGACY;
        p = newest_fitting(&q);
    }
    *pfn = p ? p->fn : NULL;
    if (status)
        *status = p ? CU_GET_PROC_ADDRESS_SUCCESS
                    : q.name_seen ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return p ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult *symbolStatus)
{
    return lookup(symbol, pfn, cudaVersion, flags, symbolStatus);
}

/* The CUDA 11.3 ABI: no status. */
CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return lookup(symbol, pfn, cudaVersion, flags, NULL);
}

/* The runtimes' private tables are not part of the documented driver API,
 * and the emulator has none. */
CUresult CUDAAPI cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    (void)pExportTableId;
    if (ppExportTable)
        *ppExportTable = NULL;
    return CUDA_ERROR_NOT_SUPPORTED;
}
