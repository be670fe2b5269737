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

#define SG_EXPORT __attribute__((visibility("default")))

/* The wrapper of each entry (preload/cuda/table.c), by entry id. */
extern void *const sg_entry_wrappers[SG_E_COUNT];

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

/* Declares a wrapper with the exported ABI name `symbol`. */
#define SG_WRAPPER(symbol) SG_EXPORT CUresult CUDAAPI symbol

/* Calls the real implementation of the wrapper `symbol` (types from the
 * wrapper's own declaration); CUDA_ERROR_NOT_FOUND when the driver lacks it. */
#define SG_FORWARD(symbol, ...)                                                   \
    ({                                                                            \
        __typeof__(&symbol) real_ = (__typeof__(&symbol))sg_real(SG_E_##symbol);  \
        real_ ? real_(__VA_ARGS__) : CUDA_ERROR_NOT_FOUND;                        \
    })

/* A shim of work that has no host side but still orders streams: a kernel,
 * memset or device copy on the legacy default stream waits for earlier
 * work of every blocking stream, and later blocking-stream work waits for
 * it. The model counts such work only while a copy is guarded: before any
 * is, the ordering it would record cannot cover a copy. stream: the
 * expression that names the call's stream. */
#define SG_STREAM_WORK(symbol, per_thread, stream, PARAMS, ...)            \
    SG_WRAPPER(symbol) PARAMS                                           \
    {                                                                   \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                   \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed())     \
            sg_note_stream_work(stream, per_thread);                    \
        return r;                                                       \
    }

/* Every wrapper starts with this: initialise once, and tell whether the
 * call is syncguard's own (then it must pass straight through). */
#define SG_ENTER() (sg_init(), sg_in_syncguard == 0)

#endif
