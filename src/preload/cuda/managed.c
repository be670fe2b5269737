/* SPDX-License-Identifier: Apache-2.0 */
/* Managed memory (issue 31). With managed_races, each cuMemAllocManaged
 * allocation enters the pinned table flagged SG_PINNED_MANAGED: a kernel
 * given a pointer into it then guards it as it guards pinned memory
 * (work/kernel.c), and the fault handler knows its pages. On a GPU with
 * concurrent managed access the host may touch managed memory while
 * kernels run (nothing faults, the host reads what is there): the guard
 * makes the access before the host observed the kernel fault instead. The
 * driver's migrations and the device's accesses ignore the CPU's page
 * protections (GPU run 39), so a guard costs the program nothing but the
 * fault. Copies keep taking managed memory for device memory (hostkind.c):
 * they are not guarded. cudaStreamAttachMemAsync changes nothing here:
 * with concurrent managed access it does not restrict who may access. */
#include "config.h"

#include "base/options.h"
#include "driver/driver.h"
#include "fault/access.h"
#include "model/model.h"
#include "preload/cuda/managed.h"
#include "preload/shim.h"

SG_CUDA_SHIM(cuMemAllocManaged, (CUdeviceptr *d, size_t n, unsigned int flags))
{
    CUresult r = SG_FORWARD(cuMemAllocManaged, d, n, flags);
    if (r == CUDA_SUCCESS && d && *d && n && sg_opt.managed_races && SG_ENTER()) {
        struct sg_pin pin = { (uintptr_t)*d, n, SG_PINNED_MANAGED, (uintptr_t)*d, sg_current_ctx() };
        sg_pinned_add(&pin); /* a range already known (overlapping): left unguarded */
    }
    return r;
}

void sg_managed_freeing(CUdeviceptr d)
{
    unsigned flags = 0;
    uintptr_t base;
    if (!d || !sg_pinned_any() || !sg_pinned_lookup((uintptr_t)d, 1, &flags) ||
        !(flags & SG_PINNED_MANAGED) || sg_pinned_base((uintptr_t)d, &base) != 0 || base != (uintptr_t)d)
        return;
    struct sg_pin gone;
    sg_access_unpin((void *)(uintptr_t)d, 1, &gone);
}
