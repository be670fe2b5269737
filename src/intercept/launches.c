/* Shims of work that has no host side but still orders streams: a kernel,
 * memset or device copy on the legacy default stream waits for earlier
 * work of every blocking stream, and later blocking-stream work waits for
 * it. The model counts such work only while a copy is guarded: before any
 * is, the ordering it would record cannot cover a copy. */
#include "config.h"

#include "syncguard/intercept.h"
#include "syncguard/observe.h"

#define STREAM_WORK(symbol, per_thread, stream, PARAMS, ...)            \
    SG_WRAPPER(symbol) PARAMS                                           \
    {                                                                   \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                   \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed())     \
            sg_note_stream_work(stream, per_thread);                    \
        return r;                                                       \
    }

#define LAUNCH_PARAMS                                                             \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params, \
     void **extra)
STREAM_WORK(cuLaunchKernel, 0, s, LAUNCH_PARAMS, f, gx, gy, gz, bx, by, bz, shmem, s, params,
            extra)
STREAM_WORK(cuLaunchKernel_ptsz, 1, s, LAUNCH_PARAMS, f, gx, gy, gz, bx, by, bz, shmem, s,
            params, extra)

#define LAUNCH_PARAMS_NO_EXTRA                                                    \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params)

#define LAUNCH_EX_PARAMS (const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
STREAM_WORK(cuLaunchKernelEx, 0, cfg ? cfg->hStream : NULL, LAUNCH_EX_PARAMS, cfg, f, params,
            extra)
STREAM_WORK(cuLaunchKernelEx_ptsz, 1, cfg ? cfg->hStream : NULL, LAUNCH_EX_PARAMS, cfg, f,
            params, extra)

STREAM_WORK(cuMemsetD8Async, 0, s, (CUdeviceptr d, unsigned char v, size_t n, CUstream s), d, v,
            n, s)
STREAM_WORK(cuMemsetD8Async_ptsz, 1, s, (CUdeviceptr d, unsigned char v, size_t n, CUstream s),
            d, v, n, s)
STREAM_WORK(cuMemsetD32Async, 0, s, (CUdeviceptr d, unsigned int v, size_t n, CUstream s), d, v,
            n, s)
STREAM_WORK(cuMemsetD32Async_ptsz, 1, s, (CUdeviceptr d, unsigned int v, size_t n, CUstream s),
            d, v, n, s)
STREAM_WORK(cuMemcpyDtoDAsync_v2, 0, s, (CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s),
            d, src, n, s)
STREAM_WORK(cuMemcpyDtoDAsync_v2_ptsz, 1, s,
            (CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s), d, src, n, s)

STREAM_WORK(cuMemsetD16Async, 0, s, (CUdeviceptr d, unsigned short v, size_t n, CUstream s), d,
            v, n, s)
STREAM_WORK(cuMemsetD16Async_ptsz, 1, s, (CUdeviceptr d, unsigned short v, size_t n, CUstream s),
            d, v, n, s)

#define MEMSET_2D_PARAMS(T) \
    (CUdeviceptr d, size_t pitch, T v, size_t w, size_t h, CUstream s)
STREAM_WORK(cuMemsetD2D8Async, 0, s, MEMSET_2D_PARAMS(unsigned char), d, pitch, v, w, h, s)
STREAM_WORK(cuMemsetD2D8Async_ptsz, 1, s, MEMSET_2D_PARAMS(unsigned char), d, pitch, v, w, h, s)
STREAM_WORK(cuMemsetD2D16Async, 0, s, MEMSET_2D_PARAMS(unsigned short), d, pitch, v, w, h, s)
STREAM_WORK(cuMemsetD2D16Async_ptsz, 1, s, MEMSET_2D_PARAMS(unsigned short), d, pitch, v, w, h,
            s)
STREAM_WORK(cuMemsetD2D32Async, 0, s, MEMSET_2D_PARAMS(unsigned int), d, pitch, v, w, h, s)
STREAM_WORK(cuMemsetD2D32Async_ptsz, 1, s, MEMSET_2D_PARAMS(unsigned int), d, pitch, v, w, h, s)

#define MEMOP_PARAMS(T) (CUstream s, CUdeviceptr addr, T v, unsigned int flags)
STREAM_WORK(cuStreamWriteValue32_v2, 0, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
STREAM_WORK(cuStreamWriteValue32_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
STREAM_WORK(cuStreamWaitValue32_v2, 0, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
STREAM_WORK(cuStreamWaitValue32_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
STREAM_WORK(cuStreamWriteValue64_v2, 0, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
STREAM_WORK(cuStreamWriteValue64_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
STREAM_WORK(cuStreamWaitValue64_v2, 0, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
STREAM_WORK(cuStreamWaitValue64_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)

#define BATCH_MEMOP_PARAMS \
    (CUstream s, unsigned int n, CUstreamBatchMemOpParams *ops, unsigned int flags)
STREAM_WORK(cuStreamBatchMemOp_v2, 0, s, BATCH_MEMOP_PARAMS, s, n, ops, flags)
STREAM_WORK(cuStreamBatchMemOp_v2_ptsz, 1, s, BATCH_MEMOP_PARAMS, s, n, ops, flags)

STREAM_WORK(cuLaunchCooperativeKernel, 0, s, LAUNCH_PARAMS_NO_EXTRA, f, gx, gy, gz, bx, by, bz,
            shmem, s, params)
STREAM_WORK(cuLaunchCooperativeKernel_ptsz, 1, s, LAUNCH_PARAMS_NO_EXTRA, f, gx, gy, gz, bx, by,
            bz, shmem, s, params)

#define PEER_PARAMS \
    (CUdeviceptr d, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s)
STREAM_WORK(cuMemcpyPeerAsync, 0, s, PEER_PARAMS, d, dc, src, sc, n, s)
STREAM_WORK(cuMemcpyPeerAsync_ptsz, 1, s, PEER_PARAMS, d, dc, src, sc, n, s)

STREAM_WORK(cuMemFreeAsync, 0, s, (CUdeviceptr d, CUstream s), d, s)
STREAM_WORK(cuMemFreeAsync_ptsz, 1, s, (CUdeviceptr d, CUstream s), d, s)
STREAM_WORK(cuMemAllocAsync, 0, s, (CUdeviceptr *d, size_t n, CUstream s), d, n, s)
STREAM_WORK(cuMemAllocAsync_ptsz, 1, s, (CUdeviceptr *d, size_t n, CUstream s), d, n, s)
