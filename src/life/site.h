/* SPDX-License-Identifier: Apache-2.0 */
/* What the copy shims share: the enqueue site of a copy (native and Python
 * stacks, captured once per call even when it guards several ranges), the
 * sampled mode's decision (taken once per call too) and handing a guarded
 * host range to the model. */
#ifndef SG_LIFE_SITE_H
#define SG_LIFE_SITE_H

#include "capture/python.h"
#include "life/life.h"
#include "model/copies.h"
#include "model/copy_desc.h"
#include "model/sync.h"

/* Forwards a call whose return shows that the earlier work of stream s is
 * done (a synchronous copy with a host side, an async copy into pageable
 * memory): an observation around it. Evaluates to the call's CUresult. */
#define SG_COMPLETING_COPY(api, s, per_thread, call)                     \
    ({                                                                   \
        struct sg_sync_op op_;                                           \
        sg_sync_op_begin(&op_, api, SG_SYNC_COPY, s, per_thread);        \
        CUresult r_ = (call);                                            \
        if (r_ == CUDA_SUCCESS)                                          \
            sg_sync_op_enqueued(&op_); /* a refused call orders nothing */ \
        sg_sync_op_end(&op_, r_ == CUDA_SUCCESS);                        \
        r_;                                                              \
    })

struct enqueue_site {
    int npcs, npy;
    uintptr_t pcs[SG_MAX_FRAMES];
    struct sg_pyframe py[SG_MAX_PYFRAMES];
};

/* The shared description of one intercepted call: what the shim knows
 * (model/copy_desc.h; the shim sets api, kernel, origin and value, and
 * sg_copy_call_guard the range each time it guards one), its stream, and
 * its enqueue site. */
struct copy_call {
    SG_COPY_DESC;
    CUstream stream;
    int per_thread;
    struct enqueue_site site;
    int captured;  /* site filled */
    int capturing; /* 0 unknown, 1 the stream is being captured, -1 it is not */
    int sampled;   /* sample=N: 0 not decided yet, 1 guarded, -1 sampled out */
};

/* A call about to be described: only its scalars are set, not the ~800
 * bytes of its site, which every copy shim would otherwise clear whether
 * or not anything is guarded (site is filled when captured is). */
static inline void sg_copy_call_init(struct copy_call *c, const char *api, CUstream s,
                                     int per_thread)
{
    c->desc = (struct sg_copy_desc){ .api = api, .origin = SG_ORIGIN_COPY };
    c->stream = s, c->per_thread = per_thread;
    c->captured = 0, c->capturing = 0, c->sampled = 0;
}

/* Guards one host range (of any shape) of the call's copy, if pinned. */
void sg_copy_call_guard(struct copy_call *call, uintptr_t host, struct sg_shape shape, int guard);
/* After the call's ranges were offered: a copy that guarded nothing is
 * still work on its stream (ordering the legacy stream against blocking
 * streams); one that guarded something was counted by the model then. */
void sg_copy_call_done(const struct copy_call *call);
/* The host address of one side of a 2D/3D copy, or 0 if it is not host
 * memory (device memory, an array). Unified pointers may be host memory. */
uintptr_t sg_copy_host_side(CUmemorytype type, const void *host, CUdeviceptr dev);
/* A "device" operand that is mapped pinned memory (its host address, or
 * the device's own address of it): the host address, else 0. Asks no
 * driver: the pinned table only. */
uintptr_t sg_copy_mapped_side(CUdeviceptr dev);
/* Whether one side of a 2D/3D copy is host memory: a host side, or a
 * unified one the driver does not call device or managed memory. */
int sg_copy_is_host_side(CUmemorytype type, CUdeviceptr dev);
/* Guards the host sides of a 2D or 3D copy description. */
void sg_copy_call_guard_2d(struct copy_call *call, const CUDA_MEMCPY2D *p);
void sg_copy_call_guard_3d(struct copy_call *call, const CUDA_MEMCPY3D *p);
/* A pointer operand of a 3D batch op: rows of extent.width elements,
 * rowLength elements apart, layerHeight rows per layer (0: packed); an
 * element is elem bytes (1, or the CUDA array operand's element; 0:
 * unknown, nothing is guarded). */
void sg_copy_call_guard_operand(struct copy_call *call, const CUmemcpy3DOperand *o,
                                const CUextent3D *e, size_t elem, int guard);

#endif
