/* SPDX-License-Identifier: Apache-2.0 */
/* k_launch.h - what the kernel-launch tests (k_*.c) share: pinned host
 * words that a kernel fills, launched by each of the launch entry points. */
#ifndef K_LAUNCH_H
#define K_LAUNCH_H

#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgt_kernels.h"
#include "sgtest.h"

enum k_how {
    K_LAUNCH,      /* cuLaunchKernel, kernelParams */
    K_LAUNCH_EX,   /* cuLaunchKernelEx, the packed buffer of `extra` */
    K_COOPERATIVE, /* cuLaunchCooperativeKernel */
    K_MULTI_DEVICE, /* cuLaunchCooperativeKernelMultiDevice, one device */
    K_LEGACY_GRID, /* cuParamSet*, cuFuncSetBlockShape, cuLaunchGridAsync */
};

/* The launch API before CUDA 4.0: the parameters laid out as the kernel
 * declares them (p at 0, n at 8, v at 12), left with the function, then
 * launched. */
static inline void k_legacy_grid(CUfunction f, CUstream s, CUdeviceptr p, unsigned int n, unsigned int v)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    SGT_CHECK(cuParamSetv(f, 0, &p, sizeof p));
    SGT_CHECK(cuParamSeti(f, 8, n));
    SGT_CHECK(cuParamSeti(f, 12, v));
    SGT_CHECK(cuParamSetSize(f, 16));
    SGT_CHECK(cuFuncSetBlockShape(f, 1, 1, 1));
    SGT_CHECK(cuLaunchGridAsync(f, 1, 1, s));
#pragma GCC diagnostic pop
}

/* The deprecated multi-device launch, or a skip where the driver no longer
 * has it. */
static inline void k_multi_device(CUDA_LAUNCH_PARAMS *list, unsigned n, unsigned flags)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CUresult r = cuLaunchCooperativeKernelMultiDevice(list, n, flags);
#pragma GCC diagnostic pop
    if (r == CUDA_ERROR_NOT_SUPPORTED) {
        printf("SKIP: cuLaunchCooperativeKernelMultiDevice is not supported here\n");
        exit(77);
    }
    SGT_CHECK(r);
}

/* sgt_fill(p, SGT_WORDS, v) on stream s, the way `how` says. */
static inline void k_fill(enum k_how how, CUstream s, CUdeviceptr p, uint32_t v)
{
    CUfunction f = sgt_kernel("sgt_fill");
    unsigned int n = SGT_WORDS;
    void *params[] = { &p, &n, &v };
    struct sgt_fill_args packed = { p, n, v };
    size_t size = sizeof packed;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                      CU_LAUNCH_PARAM_END };
    CUlaunchConfig cfg = { .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1,
                           .blockDimY = 1, .blockDimZ = 1, .hStream = s };
    switch (how) {
    case K_LAUNCH:
        SGT_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
        break;
    case K_LAUNCH_EX:
        SGT_CHECK(cuLaunchKernelEx(&cfg, f, NULL, extra));
        break;
    case K_COOPERATIVE:
        SGT_CHECK(cuLaunchCooperativeKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params));
        break;
    case K_MULTI_DEVICE: {
        CUDA_LAUNCH_PARAMS one = { f, 1, 1, 1, 1, 1, 1, 0, s, params };
        k_multi_device(&one, 1, 0);
        break;
    }
    case K_LEGACY_GRID:
        k_legacy_grid(f, s, p, n, v);
        break;
    }
}

/* sgt_gated_fill(gate, p, SGT_WORDS, v) on s by cuLaunchKernelEx with the
 * given launch attributes: it begins, then waits for the hold of
 * sgt_hold_gate (flag, value) before it fills. */
static inline void k_gated_fill_ex(CUstream s, CUdeviceptr flag, cuuint32_t value, CUdeviceptr p,
                                   uint32_t v, CUlaunchAttribute *attrs, unsigned nattrs)
{
    struct sgt_gate gate = { flag, value, 0 };
    unsigned int n = SGT_WORDS;
    void *params[] = { &gate, &p, &n, &v };
    CUlaunchConfig cfg = { .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 1,
                           .blockDimY = 1, .blockDimZ = 1, .hStream = s, .attrs = attrs,
                           .numAttrs = nattrs };
    SGT_CHECK(cuLaunchKernelEx(&cfg, sgt_kernel("sgt_gated_fill"), params, NULL));
}

/* Loads the test kernels now.  A module load waits for all the device's
 * work (measured on the H200, GPU run 27: a load behind a held stream never
 * returned), so a test loads them before it holds any stream. */
static inline void k_load_kernels(void)
{
    (void)sgt_kernel("sgt_fill");
}

/* The device's name for the pinned words (cuMemHostGetDevicePointer: the
 * host address itself under unified addressing, but asked as a program
 * that does not assume it would). */
static inline CUdeviceptr k_alias(uint32_t *host)
{
    CUdeviceptr d;
    SGT_CHECK(cuMemHostGetDevicePointer(&d, host, 0));
    return d;
}

/* SGT_WORDS words of SGT_OLD in pinned memory mapped for the device
 * (cuMemHostAlloc, CU_MEMHOSTALLOC_DEVICEMAP), and its device address in
 * *alias.  On the emulator the address is one of its own
 * (SGEMU_DEVICE_ALIAS=1), as drivers without unified addressing give; on
 * a GPU with unified addressing it is the host address. */
static inline uint32_t *k_mapped_words(CUdeviceptr *alias)
{
    setenv("SGEMU_DEVICE_ALIAS", "1", 1);
    uint32_t *host;
    SGT_CHECK(cuMemHostAlloc((void **)&host, SGT_BYTES, CU_MEMHOSTALLOC_DEVICEMAP));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;
    *alias = k_alias(host);
    if (sgt_on_emulator())
        SGT_EXPECT(*alias != (CUdeviceptr)(uintptr_t)host);
    return host;
}

#endif
