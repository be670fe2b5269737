/* SPDX-License-Identifier: Apache-2.0 */
/* What a copy's host-side address is, when syncguard did not see it pinned.
 * The wrapped allocation and registration calls fill the pinned table; host
 * memory pinned any other way (the CUDA 4.0 cuMemHostRegister ABI, the
 * virtual memory API's host allocations, memory pools located on the host,
 * a library calling the driver through a table syncguard never saw) is
 * page-locked all the same: an async copy into it returns before it lands.
 * Treating it as pageable would take that return for completion (a false
 * observation) and leave the copy unguarded. So the driver is asked
 * (cuPointerGetAttributes): memory it does not know is pageable; memory it
 * calls managed is neither pinned nor pageable (copies into it are
 * asynchronous, and syncguard does not guard it: its pages belong to the
 * driver's migration machinery); host memory it knows is page-locked, and
 * its whole range (RANGE_START_ADDR, RANGE_SIZE) enters the pinned table
 * marked foreign. A foreign range is confirmed with the driver each time it
 * is used, because syncguard does not see it end; device ranges are kept
 * in a small cache, since device-to-device copies are the hot path. */
#include "config.h"

#include <stdio.h>

#include "base/lock.h"
#include "driver/driver.h"
#include "model/model.h"
#include "model/sync.h"

struct answer {
    int ok, kind;
    uintptr_t base;
    size_t size;
};

/* One question to the driver about p. */
static struct answer ask(uintptr_t p)
{
    const struct sg_driver *d = sg_driver();
    unsigned type = 0, managed = 0;
    CUdeviceptr base = 0;
    size_t size = 0;
    CUpointer_attribute attrs[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE };
    void *data[] = { &type, &managed, &base, &size };
    struct answer a = { 0, SG_HOST_PAGEABLE, 0, 0 };
    if (!d->cuPointerGetAttributes ||
        d->cuPointerGetAttributes(4, attrs, data, (CUdeviceptr)p) != CUDA_SUCCESS || type == 0)
        return a; /* memory the driver does not know is pageable host memory */
    a.ok = 1, a.base = (uintptr_t)base, a.size = size;
    a.kind = managed ? SG_HOST_MANAGED : type == CU_MEMORYTYPE_HOST ? SG_HOST_PINNED : SG_HOST_DEVICE;
    return a;
}

/* Whether the host may write the page at addr (/proc/self/maps): a guard
 * must give the same protection back when it opens. */
static int writable(uintptr_t addr)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[512];
    int w = 1;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && lo <= addr && addr < hi) {
            w = perms[1] == 'w';
            break;
        }
    }
    if (f)
        fclose(f);
    return w;
}

#define DEVICE_CACHE 16

static struct {
    uintptr_t base;
    size_t size;
} device_ranges[DEVICE_CACHE];
static unsigned device_next;
static sg_lock_t device_lock = SG_LOCK_INIT;

static int cached_device(uintptr_t p, size_t n)
{
    int hit = 0;
    sg_lock(&device_lock);
    for (unsigned i = 0; i < DEVICE_CACHE && !hit; i++)
        hit = device_ranges[i].size && p - device_ranges[i].base < device_ranges[i].size &&
              n <= device_ranges[i].size - (p - device_ranges[i].base);
    sg_unlock(&device_lock);
    return hit;
}

static void cache_device(uintptr_t base, size_t size)
{
    sg_lock(&device_lock);
    device_ranges[device_next % DEVICE_CACHE].base = base;
    device_ranges[device_next % DEVICE_CACHE].size = size;
    device_next++;
    sg_unlock(&device_lock);
}

int sg_host_kind(uintptr_t p, size_t n)
{
    unsigned flags = 0;
    int tracked = sg_pinned_lookup(p, n ? n : 1, &flags);
    if (tracked && (flags & SG_PINNED_MANAGED))
        return SG_HOST_MANAGED;
    if (tracked && !(flags & SG_PINNED_FOREIGN))
        return SG_HOST_PINNED; /* syncguard saw it pinned: no question */
    if (!tracked && cached_device(p, n ? n : 1))
        return SG_HOST_DEVICE;
    struct answer a = ask(p);
    uintptr_t base;
    if (tracked && a.kind != SG_HOST_PINNED && sg_pinned_base(p, &base) == 0)
        sg_pinned_remove(base, NULL); /* gone since (unregistered, unmapped, freed) */
    if (a.kind == SG_HOST_DEVICE && a.size)
        cache_device(a.base, a.size);
    if (a.kind == SG_HOST_PINNED && !tracked) {
        if (!a.size || p - a.base >= a.size || (n ? n : 1) > a.size - (p - a.base))
            return SG_HOST_MANAGED; /* runs past the range (the driver refuses it): neither
                                     * guarded nor taken for pageable */
        /* a range sharing pages with a known one is asked again each time:
         * the table's ranges must not overlap */
        if (!sg_pinned_touches(a.base, a.base + a.size)) {
            struct sg_pin r = { a.base, a.size,
                                SG_PINNED_FOREIGN | (writable(a.base) ? 0 : SG_PINNED_READ_ONLY),
                                a.base, NULL };
            sg_pinned_add(&r);
        }
    }
    return a.kind;
}

int sg_host_still_pinned(uintptr_t p)
{
    return ask(p).kind == SG_HOST_PINNED;
}

int sg_is_host_pointer(CUdeviceptr p)
{
    int k = sg_host_kind((uintptr_t)p, 1);
    return k == SG_HOST_PINNED || k == SG_HOST_PAGEABLE;
}
