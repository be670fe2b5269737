/* SPDX-License-Identifier: Apache-2.0 */
/* Kernels that may write host memory: a launch whose arguments point into
 * pinned host memory (device-mapped: under unified addressing every
 * page-locked allocation is) may write any byte of those allocations until
 * the host observes the launch complete, so each is guarded like the
 * destination of a device-to-host copy. */
#ifndef SG_WORK_KERNEL_H
#define SG_WORK_KERNEL_H

#include <cuda.h>
#include <stdint.h>

#include "devmem/devmem.h"

struct sg_launch {
    const char *api; /* the entry point, for reports */
    CUfunction f;    /* or a CUkernel */
    CUstream stream;
    int per_thread;  /* a _ptsz entry point */
    void **params;   /* the launch's kernelParams... */
    void **extra;    /* ...or its packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) */
    struct sg_dev_op dev; /* its device memory, for devmem/ (zero: not followed) */
};

struct copy_call;
struct sg_kparams;
struct sg_access_set;

/* The values of a launch's pointer-sized parameters, from kernelParams or
 * extra's packed buffer: out[j] for k's j-th (0 when it cannot be read);
 * out has room for SG_KPARAMS_MAX_PTRS. How many were written: k->nptrs,
 * or 0 without parameters. */
unsigned sg_kernel_pointer_values(const struct sg_kparams *k, void **params, void **extra,
                                  uintptr_t *out);
/* Guards the pinned allocations that the values point into (each whole,
 * once): as the kernel's learnt access set says (learn/: written, guarded
 * like a device-to-host destination; only read, like a host-to-device
 * source; a synchronization variable or untouched, not at all), else,
 * learnt NULL, as if the call's kernel `name` may write them (or every
 * pinned allocation with kernel_all_mapped). A graph's kernel nodes use it
 * at each launch with the values read at instantiation. */
void sg_kernel_guard(struct copy_call *call, const char *name, const uintptr_t *values, unsigned n,
                     const struct sg_access_set *learnt);

/* Around the driver call of a launch (normal context): lets the learn
 * floor attribute an instrumented launch's accesses to its arguments. */
void sg_kernel_launching(struct sg_launch *l);
/* The device memory a launch reads and writes, as its kernel's learnt
 * access set says, handed to devmem/ before the driver call
 * (work/kernel_devmem.c; the shim calls it before sg_kernel_launching); a
 * kernel not learnt yet is not seen. */
void sg_kernel_devmem_before(struct sg_launch *l);
void sg_kernel_launch_returned(void);

/* Called (normal context) after a launch guarded something: the fault
 * floor makes sure a waiter thread is there for the bounded wait a host
 * read of a kernel's range may need (fault/wait.c, kernel_access.c). */
void sg_kernel_set_guarded_hook(void (*fn)(void));

/* After the driver accepted a launch (normal context). */
void sg_kernel_launched(const struct sg_launch *l);
/* After the driver accepted cuLaunchCooperativeKernelMultiDevice: each of
 * the n entries is a launch on its own stream, ordered by flags. */
void sg_kernel_launched_multi(const CUDA_LAUNCH_PARAMS *list, unsigned n, unsigned flags);

/* ---- events a launch records (work/launch_events.c) ----
 * cuLaunchKernelEx's event attributes, after the driver accepted the
 * launch and before it is counted (sg_kernel_launched). */
void sg_launch_events_recorded(const CUlaunchConfig *cfg, int per_thread);

/* ---- the launch API before CUDA 4.0 (work/launch_legacy.c) ----
 * What cuParamSetSize and cuParamSeti/f/v left with a function, once the
 * driver took it; a launch of the function's parameters (cuLaunch,
 * cuLaunchGrid, cuLaunchGridAsync) on s; module unloads (a function
 * handle may come back naming another kernel). */
void sg_legacy_param_size(CUfunction f, unsigned int size);
void sg_legacy_param_set(CUfunction f, int offset, const void *bytes, unsigned int n);
void sg_legacy_launched(const char *api, CUfunction f, CUstream s);
void sg_legacy_params_forget(void);

#endif
