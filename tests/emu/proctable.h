/* SPDX-License-Identifier: Apache-2.0 */
/* proctable.h - the entry-point table behind cuGetProcAddress. */
#ifndef SGEMU_PROCTABLE_H
#define SGEMU_PROCTABLE_H

#include "emu.h"

typedef enum { EMU_PROC_LEGACY, EMU_PROC_PER_THREAD } emu_proc_flavour;

/* One ABI variant of a driver function: asked for by its base name with a
 * CUDA version of at least `version`, and (for the per-thread flavour) the
 * CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM flag, the driver returns fn. */
typedef struct emu_proc {
    const char *name;
    int version;
    emu_proc_flavour flavour;
    void *fn;
} emu_proc;

extern const emu_proc emu_procs[];
extern const size_t emu_nprocs;

#endif
