/* SPDX-License-Identifier: Apache-2.0 */
/* The device's address of mapped pinned memory. Under unified addressing
 * it is the host address, and nothing is to be done; where the driver
 * gives the memory an address of its own, the pinned table learns it, so
 * that a kernel given that address guards the host range
 * (work/kernel.c). */
#include "config.h"

#include "model/model.h"
#include "preload/shim.h"

SG_CUDA_SHIM(cuMemHostGetDevicePointer_v2, (CUdeviceptr * pdptr, void *p, unsigned int flags))
{
    CUresult r = SG_FORWARD(cuMemHostGetDevicePointer_v2, pdptr, p, flags);
    uintptr_t base;
    size_t size;
    if (r == CUDA_SUCCESS && SG_ENTER() && pdptr && *pdptr != (CUdeviceptr)(uintptr_t)p &&
        sg_pinned_range((uintptr_t)p, &base, &size))
        sg_pinned_alias_add((uintptr_t)*pdptr - ((uintptr_t)p - base), size, base);
    return r;
}
