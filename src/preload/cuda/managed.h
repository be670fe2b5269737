/* SPDX-License-Identifier: Apache-2.0 */
/* Managed memory (preload/cuda/managed.c). */
#ifndef SG_PRELOAD_CUDA_MANAGED_H
#define SG_PRELOAD_CUDA_MANAGED_H

#include <cuda.h>

/* Before cuMemFree(d): when d is a managed allocation syncguard guards,
 * every kernel still using it is reported and waited for, no page of it
 * stays guarded, and it leaves the table. Nothing for other memory. */
void sg_managed_freeing(CUdeviceptr d);

#endif
