/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of kernel launches (the driver's execution control family): work
 * that orders streams, and that may write the pinned host memory its
 * arguments point into (work/kernel.c). Host functions are hostfn.c's, the
 * launch API before CUDA 4.0 launch_legacy.c's. */
#include "config.h"

/* cuLaunchCooperativeKernelMultiDevice is deprecated; its shim names it. */
#define CUDA_ENABLE_DEPRECATED 1

#include "work/kernel.h"
#include "model/sync.h"
#include "preload/shim.h"

#define KERNEL_LAUNCH(symbol, api, per_thread, stream, params, extra, PARAMS, ...)            \
    SG_CUDA_SHIM(symbol, PARAMS)                                                           \
    {                                                                                      \
        SG_IN_ORDER();                                                                     \
        struct sg_launch launch = { api, f, stream, per_thread, params, extra, { 0 } };           \
        int entered = SG_ENTER();                                                          \
        if (entered) {                                                                     \
            sg_kernel_devmem_before(&launch);                                              \
            sg_kernel_launching(&launch);                                                  \
        }                                                                                  \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                                      \
        if (entered)                                                                       \
            sg_kernel_launch_returned();                                                   \
        if (r == CUDA_SUCCESS && entered)                                                  \
            sg_kernel_launched(&launch);                                                   \
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

/* cuLaunchKernelEx: a launch, and the events its attributes record
 * (work/launch_events.c), which stand for what came before the kernel. */
#define LAUNCH_EX(symbol, per_thread)                                                         \
    SG_CUDA_SHIM(symbol, (const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)) \
    {                                                                                      \
        SG_IN_ORDER();                                                                     \
        struct sg_launch launch = { "cuLaunchKernelEx", f, cfg ? cfg->hStream : NULL, per_thread, \
                                    params, extra, { 0 } };                                     \
        int entered = cfg && SG_ENTER();                                                   \
        if (entered) {                                                                     \
            sg_kernel_devmem_before(&launch);                                              \
            sg_kernel_launching(&launch);                                                  \
        }                                                                                  \
        CUresult r = SG_FORWARD(symbol, cfg, f, params, extra);                            \
        if (entered)                                                                       \
            sg_kernel_launch_returned();                                                   \
        if (r == CUDA_SUCCESS && entered) {                                                \
            sg_launch_events_recorded(cfg, per_thread);                                    \
            sg_kernel_launched(&launch);                                                   \
        }                                                                                  \
        return r;                                                                          \
    }

LAUNCH_EX(cuLaunchKernelEx, 0)
LAUNCH_EX(cuLaunchKernelEx_ptsz, 1)

/* One launch per device, each on a stream the program made (work/kernel.c). */
SG_CUDA_SHIM(cuLaunchCooperativeKernelMultiDevice, (CUDA_LAUNCH_PARAMS *list, unsigned int n, unsigned int flags))
{
    SG_IN_ORDER();
    CUresult r = SG_FORWARD(cuLaunchCooperativeKernelMultiDevice, list, n, flags);
    if (r == CUDA_SUCCESS && list && SG_ENTER())
        sg_kernel_launched_multi(list, n, flags);
    return r;
}
