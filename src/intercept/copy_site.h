/* What the copy shims share: the enqueue site of a copy (native and Python
 * stacks, captured once per call even when it guards several ranges) and
 * handing a guarded host range to the model. */
#ifndef SYNCGUARD_COPY_SITE_H
#define SYNCGUARD_COPY_SITE_H

#include "syncguard/copies.h"

struct enqueue_site {
    int npcs, npy;
    uintptr_t pcs[SG_MAX_FRAMES];
    struct sg_pyframe py[SG_MAX_PYFRAMES];
};

/* The shared description of one intercepted call. */
struct copy_call {
    const char *api;
    CUstream stream;
    int per_thread;
    struct enqueue_site site;
    int captured;  /* site filled */
    int capturing; /* 0 unknown, 1 the stream is being captured, -1 it is not */
};

/* Guards one host range (of any shape) of the call's copy, if pinned;
 * returns 1 if it was handed to the model. */
int sg_copy_call_guard(struct copy_call *call, uintptr_t host, struct sg_shape shape, int guard);
/* Guards the host sides of a 3D copy description (copies_nd.c). */
void sg_copy_call_guard_3d(struct copy_call *call, const CUDA_MEMCPY3D *p);

#endif
