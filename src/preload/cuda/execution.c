/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of kernel launches (the driver's execution control family): work
 * with no host side that still orders streams (SG_STREAM_WORK, shim.h).
 * Host functions are hostfn.c's. */
#include "config.h"

#include "model/sync.h"
#include "preload/shim.h"

#define LAUNCH_PARAMS                                                             \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params, \
     void **extra)
SG_STREAM_WORK(cuLaunchKernel, 0, s, LAUNCH_PARAMS, f, gx, gy, gz, bx, by, bz, shmem, s, params,
            extra)
SG_STREAM_WORK(cuLaunchKernel_ptsz, 1, s, LAUNCH_PARAMS, f, gx, gy, gz, bx, by, bz, shmem, s,
            params, extra)

#define LAUNCH_PARAMS_NO_EXTRA                                                    \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, \
     unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params)

#define LAUNCH_EX_PARAMS (const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
SG_STREAM_WORK(cuLaunchKernelEx, 0, cfg ? cfg->hStream : NULL, LAUNCH_EX_PARAMS, cfg, f, params,
            extra)
SG_STREAM_WORK(cuLaunchKernelEx_ptsz, 1, cfg ? cfg->hStream : NULL, LAUNCH_EX_PARAMS, cfg, f,
            params, extra)

SG_STREAM_WORK(cuLaunchCooperativeKernel, 0, s, LAUNCH_PARAMS_NO_EXTRA, f, gx, gy, gz, bx, by, bz,
            shmem, s, params)
SG_STREAM_WORK(cuLaunchCooperativeKernel_ptsz, 1, s, LAUNCH_PARAMS_NO_EXTRA, f, gx, gy, gz, bx, by,
            bz, shmem, s, params)
