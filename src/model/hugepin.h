/* SPDX-License-Identifier: Apache-2.0 */
/* huge_pinned: large pinned allocations on syncguard's own transparent
 * huge pages, registered with the driver (hugepin.c). Normal context. */
#ifndef SG_MODEL_HUGEPIN_H
#define SG_MODEL_HUGEPIN_H

#include <cuda.h>
#include <stddef.h>

#include "model/model.h"

/* For cuMemHostAlloc (host_alloc 1, with flags) or cuMemAllocHost (0): n
 * bytes on huge pages, pinned and in the pinned table; CUDA_SUCCESS with
 * *pp set. Anything else (too small, a flag registration cannot give,
 * no transparent huge pages, a step failed): CUDA_ERROR_NOT_SUPPORTED,
 * nothing changed, and the caller asks the driver as it would have. */
CUresult sg_hugepin_alloc(int host_alloc, void **pp, size_t n, unsigned flags);

/* cuMemFreeHost of such a block, already out of the pinned table (*b as
 * it was there): unregistered and unmapped. When the driver refuses to
 * unregister, the block stays and is pinned again. */
CUresult sg_hugepin_free(const struct sg_pin *b);
/* The context such a block was allocated in was torn down, where the
 * driver frees its own allocations; the block is out of the pinned table
 * already: unmapped (after unregistering it, should its registration have
 * outlived the context). */
void sg_hugepin_ctx_gone(const struct sg_pin *b);

/* cuMemHostGetFlags for such a block (its pinned flags): what the driver
 * answers for an allocation the program's call would have made. */
CUresult sg_hugepin_get_flags(unsigned pinned_flags, unsigned *answer);
/* What the driver answers a program that registers part of (unregister 0)
 * or unregisters (1) one of its own allocations: the answer for a block. */
CUresult sg_hugepin_refusal(int unregister);

#endif
