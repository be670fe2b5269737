/* SPDX-License-Identifier: Apache-2.0 */
/* What the pinned host memory shims (memhost.c) do when the driver takes
 * pinned memory back by itself. Normal context. */
#ifndef SG_PRELOAD_CUDA_MEMHOST_H
#define SG_PRELOAD_CUDA_MEMHOST_H

#include <cuda.h>

/* The driver has torn ctx down (cuCtxDestroy, a primary context reset, its
 * last release), freeing the context's pinned allocations and dropping its
 * registrations: those ranges are forgotten (a later mapping at their
 * addresses is pageable memory), after resolving any copy still pending
 * on them, and syncguard's huge blocks of ctx are unmapped. */
void sg_memhost_ctx_gone(CUcontext ctx);

#endif
