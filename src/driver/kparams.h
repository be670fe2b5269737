/* SPDX-License-Identifier: Apache-2.0 */
/* What the driver says of a kernel's parameters: where each one lies in
 * the launch's parameter buffer (cuFuncGetParamInfo, CUDA 12.4+) and the
 * kernel's name (cuFuncGetName), asked once per function and kept. */
#ifndef SG_DRIVER_KPARAMS_H
#define SG_DRIVER_KPARAMS_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#define SG_KPARAMS_MAX_PTRS 64

struct sg_kparams {
    const char *name;   /* the kernel's name; never freed */
    int decoded;        /* 0: the driver could not say where the parameters lie */
    unsigned nparams;
    size_t argbytes;    /* end of the last parameter */
    /* The parameters a pointer fits in (8 bytes): index and offset. */
    unsigned nptrs;
    uint16_t ptr_index[SG_KPARAMS_MAX_PTRS];
    uint32_t ptr_offset[SG_KPARAMS_MAX_PTRS];
};

/* The layout of f's parameters (f may be a CUkernel, as launches accept
 * one); never NULL. Cached per handle until sg_kparams_forget. Normal
 * context. */
const struct sg_kparams *sg_kparams_of(CUfunction f);
/* Modules or libraries were unloaded: their handles may come back naming
 * other kernels, so every cached layout is asked again. */
void sg_kparams_forget(void);

#endif
