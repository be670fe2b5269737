/* Shims of the pinned host memory family: allocation and registration make
 * a range pinned (its async copies get guarded); free and unregistration
 * end that, after releasing any guard still on the range. */
#include "config.h"

#include <stdio.h>

#include "syncguard/copies.h"
#include "syncguard/guard.h"
#include "syncguard/access.h"
#include "syncguard/intercept.h"
#include "syncguard/model.h"

/* Whether the host may write the page at addr, from /proc/self/maps:
 * registered memory keeps its protection (CU_MEMHOSTREGISTER_READ_ONLY only
 * says the device reads it), and syncguard must give the same back when it
 * opens a guard. Read once per registration. */
static int host_writable(uintptr_t addr)
{
    FILE *f = fopen("/proc/self/maps", "re");
    char line[512];
    int writable = 1;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && lo <= addr && addr < hi) {
            writable = perms[1] == 'w';
            break;
        }
    }
    if (f)
        fclose(f);
    return writable;
}

static void pinned(void *p, size_t n, unsigned flags)
{
    if (p && n)
        sg_pinned_add((uintptr_t)p, n, flags);
}

/* Before the driver takes the range back, every copy still in flight on it
 * is reported and waited for, and no page of it stays guarded. */
static void unpinning(void *p)
{
    size_t n;
    if (sg_pinned_remove((uintptr_t)p, &n) != 0)
        return;
    sg_access_free((uintptr_t)p, n);
    sg_lock(&sg_model_lock);
    sg_guard_forget_program_prot((uintptr_t)p, (uintptr_t)p + n);
    sg_unlock(&sg_model_lock);
}

SG_WRAPPER(cuMemAllocHost_v2)(void **pp, size_t n)
{
    CUresult r = SG_FORWARD(cuMemAllocHost_v2, pp, n);
    if (r == CUDA_SUCCESS && SG_ENTER())
        pinned(*pp, n, 0);
    return r;
}

SG_WRAPPER(cuMemHostAlloc)(void **pp, size_t n, unsigned int flags)
{
    CUresult r = SG_FORWARD(cuMemHostAlloc, pp, n, flags);
    if (r == CUDA_SUCCESS && SG_ENTER())
        pinned(*pp, n, 0);
    return r;
}

SG_WRAPPER(cuMemHostRegister_v2)(void *p, size_t n, unsigned int flags)
{
    CUresult r = SG_FORWARD(cuMemHostRegister_v2, p, n, flags);
    if (r == CUDA_SUCCESS && SG_ENTER())
        pinned(p, n, host_writable((uintptr_t)p) ? 0 : SG_PINNED_READ_ONLY);
    return r;
}

SG_WRAPPER(cuMemFreeHost)(void *p)
{
    if (SG_ENTER())
        unpinning(p);
    return SG_FORWARD(cuMemFreeHost, p);
}

SG_WRAPPER(cuMemHostUnregister)(void *p)
{
    if (SG_ENTER())
        unpinning(p);
    return SG_FORWARD(cuMemHostUnregister, p);
}
