/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the stream-ordered allocator: allocations and frees are stream
 * work like any other. */
#include "config.h"

#include "model/sync.h"
#include "preload/shim.h"

SG_STREAM_WORK(cuMemFreeAsync, 0, s, (CUdeviceptr d, CUstream s), d, s)
SG_STREAM_WORK(cuMemFreeAsync_ptsz, 1, s, (CUdeviceptr d, CUstream s), d, s)
SG_STREAM_WORK(cuMemAllocAsync, 0, s, (CUdeviceptr *d, size_t n, CUstream s), d, n, s)
SG_STREAM_WORK(cuMemAllocAsync_ptsz, 1, s, (CUdeviceptr *d, size_t n, CUstream s), d, n, s)
