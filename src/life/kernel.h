/* SPDX-License-Identifier: Apache-2.0 */
/* Kernels that may write host memory: a launch whose arguments point into
 * pinned host memory (device-mapped: under unified addressing every
 * page-locked allocation is) may write any byte of those allocations until
 * the host observes the launch complete, so each is guarded like the
 * destination of a device-to-host copy. */
#ifndef SG_LIFE_KERNEL_H
#define SG_LIFE_KERNEL_H

#include <cuda.h>

struct sg_launch {
    const char *api; /* the entry point, for reports */
    CUfunction f;    /* or a CUkernel */
    CUstream stream;
    int per_thread;  /* a _ptsz entry point */
    void **params;   /* the launch's kernelParams... */
    void **extra;    /* ...or its packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) */
};

/* After the driver accepted a launch (normal context). */
void sg_kernel_launched(const struct sg_launch *l);

#endif
