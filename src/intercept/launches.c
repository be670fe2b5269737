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
