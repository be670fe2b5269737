/* The interception layer: which driver entry points syncguard wraps, where
 * their real implementations are kept, and how wrappers call them. */
#ifndef SYNCGUARD_INTERCEPT_H
#define SYNCGUARD_INTERCEPT_H

#include <cuda.h>

#include "syncguard/common.h"

#include "syncguard/entries.h"

/* The real function of an entry, resolved lazily from libcuda.so.1 when no
 * cuGetProcAddress answer has provided it yet; NULL if the driver lacks it. */
void *sg_real(enum sg_entry_id id);
/* Records the real function of an entry (the first answer wins); refuses
 * pointers into syncguard itself, which would make a wrapper call itself. */
void sg_real_offer(enum sg_entry_id id, void *fn);

/* Driver functions syncguard calls for itself and does not wrap. */
struct sg_driver {
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxPushCurrent)(CUcontext);
    CUresult (*cuCtxPopCurrent)(CUcontext *);
    CUresult (*cuStreamGetFlags)(CUstream, unsigned int *);
    CUresult (*cuStreamGetCtx)(CUstream, CUcontext *);
    CUresult (*cuStreamIsCapturing)(CUstream, CUstreamCaptureStatus *);
    CUresult (*cuEventCreate)(CUevent *, unsigned int);
    CUresult (*cuEventDestroy)(CUevent);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventQuery)(CUevent);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuGraphGetNodes)(CUgraph, CUgraphNode *, size_t *);
    CUresult (*cuGraphNodeGetType)(CUgraphNode, CUgraphNodeType *);
    CUresult (*cuGraphMemcpyNodeGetParams)(CUgraphNode, CUDA_MEMCPY3D *);
    CUresult (*cuGraphChildGraphNodeGetGraph)(CUgraphNode, CUgraph *);
    CUresult (*cuGraphHostNodeGetParams)(CUgraphNode, CUDA_HOST_NODE_PARAMS *);
};
/* Filled on first use; members are NULL where the driver lacks them. */
const struct sg_driver *sg_driver(void);

/* The wrapper of an exported ABI name, or NULL if syncguard does not wrap
 * it. real is what the caller would have got; it is recorded. */
void *sg_wrapper_for_symbol(const char *symbol, void *real);
/* cuGetProcAddress answers are replaced through this. */
void *sg_wrapper_for_request(const char *base, void *real, int version, cuuint64_t flags);

/* The real dlsym, which syncguard's own dlsym hides. */
void *sg_real_dlsym(void *handle, const char *name);
/* The definition of a C library function that syncguard's own hides: the
 * next one after syncguard, else libc's own (when a library defining it
 * comes before syncguard in LD_PRELOAD). */
void *sg_real_next(const char *name);
/* Warns once when syncguard is not first in the search order for dlsym. */
void sg_check_preload_order(void);
/* libcuda.so.1, loaded if the program has not loaded it yet. */
void *sg_libcuda(void);

/* Whether an address lies in libsyncguard.so (its frames are never shown). */
int sg_self_contains(uintptr_t addr);

/* Declares a wrapper with the exported ABI name `symbol`. */
#define SG_WRAPPER(symbol) SG_EXPORT CUresult CUDAAPI symbol

/* Calls the real implementation of the wrapper `symbol` (types from the
 * wrapper's own declaration); CUDA_ERROR_NOT_FOUND when the driver lacks it. */
#define SG_FORWARD(symbol, ...)                                                   \
    ({                                                                            \
        __typeof__(&symbol) real_ = (__typeof__(&symbol))sg_real(SG_E_##symbol);  \
        real_ ? real_(__VA_ARGS__) : CUDA_ERROR_NOT_FOUND;                        \
    })

/* graphs.c: the host function and data to put in a graph (captured or
 * added as a node) instead of the program's, so that its start observes
 * the graph's earlier work; 0, or -1 when that cannot be done. */
int sg_graph_wrap_host_fn(CUhostFn *fn, void **data);

/* Every wrapper starts with this: initialise once, and tell whether the
 * call is syncguard's own (then it must pass straight through). */
#define SG_ENTER() (sg_init(), sg_in_syncguard == 0)

#endif
