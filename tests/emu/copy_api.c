/* SPDX-License-Identifier: Apache-2.0 */
/* copy_api.c - the 1D and peer copy entry points, the 1D copies between a
 * CUDA array and host memory among them, in their legacy and
 * per-thread-default-stream (_ptds/_ptsz) flavours.  The flavours differ only
 * in which stream NULL means. */
#include "copy.h"

static CUresult copy_1d(uintptr_t dst, emu_side_type dt, uintptr_t src, emu_side_type st, size_t n,
                        bool async, CUstream stream, emu_null_stream null_means)
{
    emu_copy c = emu_copy_1d(dst, dt, src, st, n);
    c.async = async;
    c.stream = stream;
    c.null_means = null_means;
    return emu_copy_submit(&c);
}

#define SYNC_COPY(dst, dt, src, st, n, null_means) \
    copy_1d((uintptr_t)(dst), dt, (uintptr_t)(src), st, n, false, NULL, null_means)
#define ASYNC_COPY(dst, dt, src, st, n, stream, null_means) \
    copy_1d((uintptr_t)(dst), dt, (uintptr_t)(src), st, n, true, stream, null_means)

/* Short names for the side types, for the tables of entry points below. */
#define H EMU_SIDE_HOST
#define D EMU_SIDE_DEVICE
#define U EMU_SIDE_UNIFIED

/* ---- unified addresses --------------------------------------------------- */

EMU_NULL_STREAM_ABIS(cuMemcpy, cuMemcpy_ptds, (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount),
                     SYNC_COPY, dst, U, src, U, ByteCount)
EMU_NULL_STREAM_ABIS(cuMemcpyAsync, cuMemcpyAsync_ptsz,
                     (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream),
                     ASYNC_COPY, dst, U, src, U, ByteCount, hStream)

/* ---- synchronous typed copies -------------------------------------------- */

EMU_NULL_STREAM_ABIS(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds,
                     (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount),
                     SYNC_COPY, dstDevice, D, srcHost, H, ByteCount)
EMU_NULL_STREAM_ABIS(cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds,
                     (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount),
                     SYNC_COPY, dstHost, H, srcDevice, D, ByteCount)
EMU_NULL_STREAM_ABIS(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds,
                     (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount),
                     SYNC_COPY, dstDevice, D, srcDevice, D, ByteCount)

/* ---- asynchronous typed copies ------------------------------------------- */

EMU_NULL_STREAM_ABIS(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz,
                     (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream),
                     ASYNC_COPY, dstDevice, D, srcHost, H, ByteCount, hStream)
EMU_NULL_STREAM_ABIS(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz,
                     (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream),
                     ASYNC_COPY, dstHost, H, srcDevice, D, ByteCount, hStream)
EMU_NULL_STREAM_ABIS(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz,
                     (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream),
                     ASYNC_COPY, dstDevice, D, srcDevice, D, ByteCount, hStream)

/* ---- CUDA arrays ----------------------------------------------------------
 * An array is device memory (array.c): the rules of a device-to-host or
 * host-to-device copy apply, whatever the host side is. */

static CUresult copy_array(uintptr_t host, CUarray a, size_t off, size_t n, bool to_host, bool async,
                           CUstream stream, emu_null_stream null_means)
{
    uintptr_t dev = 0;
    CUresult r = emu_array_bytes(a, off, n, &dev);
    if (r != CUDA_SUCCESS)
        return r;
    return to_host ? copy_1d(host, H, dev, D, n, async, stream, null_means)
                   : copy_1d(dev, D, host, H, n, async, stream, null_means);
}

EMU_NULL_STREAM_ABIS(cuMemcpyAtoH_v2, cuMemcpyAtoH_v2_ptds,
                     (void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount),
                     copy_array, (uintptr_t)dstHost, srcArray, srcOffset, ByteCount, true, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpyHtoA_v2, cuMemcpyHtoA_v2_ptds,
                     (CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount),
                     copy_array, (uintptr_t)srcHost, dstArray, dstOffset, ByteCount, false, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpyAtoHAsync_v2, cuMemcpyAtoHAsync_v2_ptsz,
                     (void *dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount, CUstream hStream),
                     copy_array, (uintptr_t)dstHost, srcArray, srcOffset, ByteCount, true, true, hStream)
EMU_NULL_STREAM_ABIS(cuMemcpyHtoAAsync_v2, cuMemcpyHtoAAsync_v2_ptsz,
                     (CUarray dstArray, size_t dstOffset, const void *srcHost, size_t ByteCount, CUstream hStream),
                     copy_array, (uintptr_t)srcHost, dstArray, dstOffset, ByteCount, false, true, hStream)

/* ---- between contexts ---------------------------------------------------- */

/* One address space, so a peer copy moves bytes like a device-to-device
 * copy; only its ordering differs (see add_peer_deps in copy.c). */
static CUresult copy_peer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n,
                          bool async, CUstream stream, emu_null_stream null_means)
{
    emu_copy c = emu_copy_1d((uintptr_t)dst, D, (uintptr_t)src, D, n);
    c.async = async;
    c.stream = stream;
    c.null_means = null_means;
    c.peer = true;
    c.peer_ctx[0] = dst_ctx;
    c.peer_ctx[1] = src_ctx;
    return emu_copy_submit(&c);
}

EMU_NULL_STREAM_ABIS(cuMemcpyPeer, cuMemcpyPeer_ptds,
                     (CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                      size_t ByteCount),
                     copy_peer, dstDevice, dstContext, srcDevice, srcContext, ByteCount, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz,
                     (CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                      size_t ByteCount, CUstream hStream),
                     copy_peer, dstDevice, dstContext, srcDevice, srcContext, ByteCount, true, hStream)
