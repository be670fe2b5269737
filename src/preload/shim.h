/* SPDX-License-Identifier: Apache-2.0 */
/* How a shim is declared, and how it reaches what it hides. The preload
 * layer is the only one whose symbols are exported: every definition here
 * is the program's to call. */
#ifndef SG_PRELOAD_SHIM_H
#define SG_PRELOAD_SHIM_H

#include <cuda.h>

#include "base/common.h"
#include "base/lock.h"
#include "driver/entries.h"
#include "preload/root.h"
#include "preload/table.h"
#include "model/sync.h"

#define SG_EXPORT __attribute__((visibility("default")))

/* The wrapper of an exported ABI name, or NULL if syncguard does not wrap
 * it. real is what the caller would have got; it is recorded. */
void *sg_wrapper_for_symbol(const char *symbol, void *real);
/* cuGetProcAddress answers are replaced through this. */
void *sg_wrapper_for_request(const char *base, void *real, int version, cuuint64_t flags);
/* syncguard's cuGetProcAddress (abi 1) and cuGetProcAddress_v2 (abi 2),
 * and recording the driver's own. */
void *sg_procaddr_v1_hook(void);
void *sg_procaddr_v2_hook(void);
void sg_procaddr_offer_real(int abi, void *fn);
/* The C half of the dlsym stub (libc/dlsym.c): every handle but
 * RTLD_NEXT. */
void *sg_dlsym_impl(void *handle, const char *name);

/* The one way to declare a shim: the exported definition of name, which
 * the program's calls reach instead of the definition it hides. It also
 * declares name first, so that every shim has a prototype (cuda.h has none
 * for per-thread variants and older ABIs).
 *   SG_SHIM(ssize_t, read, (int fd, void *buf, size_t n)) { ... }
 * A C library shim finds the function it hides with SG_NEXT(name)
 * (base/dl.h); a driver shim, one line of driver/entrypoints.def, with
 * SG_REAL(symbol) or SG_FORWARD (driver/entries.h). */
#define SG_SHIM(ret, name, params) \
    ret name params;               \
    SG_EXPORT ret name params

/* A driver shim: SG_CUDA_SHIM(cuStreamSynchronize, (CUstream h)) { ... }. */
#define SG_CUDA_SHIM(symbol, params) SG_SHIM(CUresult CUDAAPI, symbol, params)

/* A shim of work that has no host side but still orders streams: a kernel,
 * memset or device copy on the legacy default stream waits for earlier
 * work of every blocking stream, and later blocking-stream work waits for
 * it. The model counts such work only while a copy is guarded: before any
 * is, the ordering it would record cannot cover a copy. stream: the
 * expression that names the call's stream. */
#define SG_STREAM_WORK(symbol, per_thread, stream, PARAMS, ...)            \
    SG_CUDA_SHIM(symbol, PARAMS)                                           \
    {                                                                   \
        SG_IN_ORDER();                                                  \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                   \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed())     \
            sg_note_stream_work(stream, per_thread);                    \
        return r;                                                       \
    }

/* Every wrapper starts with this: initialise once, and tell whether the
 * call is syncguard's own (then it must pass straight through). */
#define SG_ENTER() (sg_init(), sg_in_syncguard == 0)

#endif
