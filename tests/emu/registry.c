/* SPDX-License-Identifier: Apache-2.0 */
/* registry.c - the unified address space: which addresses are emulated
 * device memory, which are page-locked host memory (allocated or
 * registered).  Under unified addressing this is all a driver needs to
 * classify the pointers of a generic copy.  A sorted array: lookups are
 * binary searches, changes are rare. */
#include "emu.h"

#include <stdlib.h>
#include <string.h>

static emu_range *ranges;
static size_t nranges, cap;
static unsigned long long next_id = 1;

unsigned long long emu_mem_next_id(void)
{
    return next_id++;
}

/* Index of the first range whose base is above addr. */
static size_t first_above(uintptr_t addr)
{
    size_t lo = 0, hi = nranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ranges[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const emu_range *emu_mem_find(uintptr_t addr)
{
    size_t i = first_above(addr);
    if (i == 0)
        return NULL;
    const emu_range *r = &ranges[i - 1];
    return addr - r->base < r->size ? r : NULL;
}

const emu_range *emu_mem_overlap(uintptr_t base, size_t n)
{
    const emu_range *r = emu_mem_find(base);
    if (r)
        return r;
    size_t i = first_above(base);
    return i < nranges && ranges[i].base - base < n ? &ranges[i] : NULL;
}

bool emu_mem_managed(uintptr_t addr)
{
    const emu_range *r = emu_mem_find(addr);
    return r && r->kind == EMU_MEM_MANAGED;
}

emu_where emu_mem_where(uintptr_t addr, size_t n)
{
    const emu_range *r = emu_mem_find(addr);
    if (!r)
        return EMU_PAGEABLE;
    bool inside = (n ? n : 1) <= r->size - (addr - r->base);
    if (emu_mem_kind_device(r->kind))
        return inside ? EMU_DEVICE : EMU_BAD;
    /* Copies with a host-located pool's memory behave as with pageable
     * memory on the real driver (CUDA 13.0, driver 580, GPU run 20: a
     * device-to-host cuMemcpyAsync into it returned only once complete). */
    if (r->kind == EMU_MEM_HOST_POOL)
        return EMU_PAGEABLE;
    return inside ? EMU_PINNED : EMU_PAGEABLE;
}

void emu_mem_insert(const emu_range *r)
{
    ranges = emu_grow(ranges, nranges, &cap, sizeof *ranges);
    size_t i = first_above(r->base);
    memmove(&ranges[i + 1], &ranges[i], (nranges - i) * sizeof *ranges);
    ranges[i] = *r;
    nranges++;
}

bool emu_mem_remove(uintptr_t base, emu_range *removed)
{
    size_t i = first_above(base);
    if (i == 0 || ranges[i - 1].base != base)
        return false;
    if (removed)
        *removed = ranges[i - 1];
    memmove(&ranges[i - 1], &ranges[i], (nranges - i) * sizeof *ranges);
    nranges--;
    return true;
}

size_t emu_mem_take_ctx(CUcontext ctx, emu_range **out)
{
    size_t n = 0, kept = 0;
    *out = NULL;
    for (size_t i = 0; i < nranges; i++) {
        if (ranges[i].ctx == ctx) {
            *out = emu_xrealloc(*out, (n + 1) * sizeof **out);
            (*out)[n++] = ranges[i];
        } else {
            ranges[kept++] = ranges[i];
        }
    }
    nranges = kept;
    return n;
}
