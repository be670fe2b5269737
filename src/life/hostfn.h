/* SPDX-License-Identifier: Apache-2.0 */
/* Trampolines for host functions and stream callbacks (life/hostfn.c). */
#ifndef SG_LIFE_HOSTFN_H
#define SG_LIFE_HOSTFN_H

#include <cuda.h>

#include "model/sync.h"

struct sg_host_fn {
    CUhostFn fn;
    CUstreamCallback cb;
    void *data;
    struct sg_sync_op op;
};

/* The function is about to be enqueued: what its start will show, or NULL
 * when nothing is to be observed. capturing: whether s is being captured,
 * -1 when the caller did not ask the driver yet (asked here only when
 * something is to be observed). */
struct sg_host_fn *sg_host_fn_prepare(CUstream s, int per_thread, const char *api, int capturing);
/* The driver refused to enqueue it. */
void sg_host_fn_discard(struct sg_host_fn *t);
/* What the driver runs instead of the program's function or callback. */
void CUDA_CB sg_host_fn_run(void *arg);
void CUDA_CB sg_host_fn_run_callback(CUstream s, CUresult status, void *arg);

#endif
