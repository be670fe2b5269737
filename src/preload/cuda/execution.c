/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of kernel launches (the driver's execution control family): work
 * that orders streams, and that may write the pinned host memory its
 * arguments point into (life/kernel.c). Host functions are hostfn.c's. */
#include "config.h"

#include "life/kernel.h"
#include "model/sync.h"
#include "preload/shim.h"

#define KERNEL_LAUNCH(symbol, api, per_thread, stream, params, extra, PARAMS, ...)            \
    SG_CUDA_SHIM(symbol, PARAMS)                                                           \
    {                                                                                      \
        SG_IN_ORDER();                                                                     \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                                      \
        if (r == CUDA_SUCCESS && SG_ENTER())                                               \
            sg_kernel_launched(                                                            \
                &(struct sg_launch){ api, f, stream, per_thread, params, extra });          \
        return r;                                                                          \
    }

#define LAUNCH_PARAMS                                                                     \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,      \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params,      \
     void **extra)
KERNEL_LAUNCH(cuLaunchKernel, "cuLaunchKernel", 0, s, params, extra, LAUNCH_PARAMS, f, gx, gy,
              gz, bx, by, bz, shmem, s, params, extra)
KERNEL_LAUNCH(cuLaunchKernel_ptsz, "cuLaunchKernel", 1, s, params, extra, LAUNCH_PARAMS, f, gx,
              gy, gz, bx, by, bz, shmem, s, params, extra)

#define LAUNCH_PARAMS_NO_EXTRA                                                            \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,      \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params)
KERNEL_LAUNCH(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", 0, s, params, NULL,
              LAUNCH_PARAMS_NO_EXTRA, f, gx, gy, gz, bx, by, bz, shmem, s, params)
KERNEL_LAUNCH(cuLaunchCooperativeKernel_ptsz, "cuLaunchCooperativeKernel", 1, s, params, NULL,
              LAUNCH_PARAMS_NO_EXTRA, f, gx, gy, gz, bx, by, bz, shmem, s, params)

#define LAUNCH_EX_PARAMS (const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
KERNEL_LAUNCH(cuLaunchKernelEx, "cuLaunchKernelEx", 0, cfg ? cfg->hStream : NULL, params, extra,
              LAUNCH_EX_PARAMS, cfg, f, params, extra)
KERNEL_LAUNCH(cuLaunchKernelEx_ptsz, "cuLaunchKernelEx", 1, cfg ? cfg->hStream : NULL, params,
              extra, LAUNCH_EX_PARAMS, cfg, f, params, extra)
