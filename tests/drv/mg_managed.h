/* SPDX-License-Identifier: Apache-2.0 */
/* mg_managed.h - what the managed-memory tests (mg_*.c) share: SGT_WORDS
 * words of managed memory, written by the host. */
#ifndef MG_MANAGED_H
#define MG_MANAGED_H

#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

/* A managed allocation (attached globally) of SGT_BYTES, every word set to
 * fill by the host; its host view returned, its address in *m. */
static inline uint32_t *mg_managed_words(CUdeviceptr *m, uint32_t fill)
{
    SGT_CHECK(cuMemAllocManaged(m, SGT_BYTES, CU_MEM_ATTACH_GLOBAL));
    uint32_t *words = (uint32_t *)(uintptr_t)*m;
    for (unsigned i = 0; i < SGT_WORDS; i++)
        words[i] = fill;
    return words;
}

#endif
