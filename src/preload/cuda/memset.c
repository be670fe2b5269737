/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of asynchronous memsets: stream work with no host side. */
#include "config.h"

#include "model/sync.h"
#include "preload/shim.h"

SG_STREAM_WORK(cuMemsetD8Async, 0, s, (CUdeviceptr d, unsigned char v, size_t n, CUstream s), d, v,
            n, s)
SG_STREAM_WORK(cuMemsetD8Async_ptsz, 1, s, (CUdeviceptr d, unsigned char v, size_t n, CUstream s),
            d, v, n, s)
SG_STREAM_WORK(cuMemsetD32Async, 0, s, (CUdeviceptr d, unsigned int v, size_t n, CUstream s), d, v,
            n, s)
SG_STREAM_WORK(cuMemsetD32Async_ptsz, 1, s, (CUdeviceptr d, unsigned int v, size_t n, CUstream s),
            d, v, n, s)

SG_STREAM_WORK(cuMemsetD16Async, 0, s, (CUdeviceptr d, unsigned short v, size_t n, CUstream s), d,
            v, n, s)
SG_STREAM_WORK(cuMemsetD16Async_ptsz, 1, s, (CUdeviceptr d, unsigned short v, size_t n, CUstream s),
            d, v, n, s)

#define MEMSET_2D_PARAMS(T) \
    (CUdeviceptr d, size_t pitch, T v, size_t w, size_t h, CUstream s)
SG_STREAM_WORK(cuMemsetD2D8Async, 0, s, MEMSET_2D_PARAMS(unsigned char), d, pitch, v, w, h, s)
SG_STREAM_WORK(cuMemsetD2D8Async_ptsz, 1, s, MEMSET_2D_PARAMS(unsigned char), d, pitch, v, w, h, s)
SG_STREAM_WORK(cuMemsetD2D16Async, 0, s, MEMSET_2D_PARAMS(unsigned short), d, pitch, v, w, h, s)
SG_STREAM_WORK(cuMemsetD2D16Async_ptsz, 1, s, MEMSET_2D_PARAMS(unsigned short), d, pitch, v, w, h,
            s)
SG_STREAM_WORK(cuMemsetD2D32Async, 0, s, MEMSET_2D_PARAMS(unsigned int), d, pitch, v, w, h, s)
SG_STREAM_WORK(cuMemsetD2D32Async_ptsz, 1, s, MEMSET_2D_PARAMS(unsigned int), d, pitch, v, w, h, s)
