/* SPDX-License-Identifier: Apache-2.0 */
/* Trampolines for host functions and stream callbacks (work/hostfn.c). */
#ifndef SG_WORK_HOSTFN_H
#define SG_WORK_HOSTFN_H

#include <cuda.h>

#include "model/copies.h"
#include "model/sync.h"

struct sg_host_fn {
    CUhostFn fn;
    CUstreamCallback cb;
    void *data;
    struct sg_sync_op op;
    uint64_t gate; /* it is a gate until it returns (model/gates.c) */
};

/* The function is about to be enqueued (the shim holds the enqueue order
 * lock): what its start will show, and its gate; NULL when it is captured
 * (capturing: whether s is being captured, -1 when the caller did not ask
 * the driver yet) or out of memory. */
struct sg_host_fn *sg_host_fn_prepare(CUstream s, int per_thread, const char *api, int capturing);
/* The driver accepted it: its place on its stream (t may be running or
 * gone already: only the stream is named). */
void sg_host_fn_enqueued(CUstream s, int per_thread);
/* The driver refused to enqueue it. */
void sg_host_fn_discard(struct sg_host_fn *t);
/* What the driver runs instead of the program's function or callback. */
void CUDA_CB sg_host_fn_run(void *arg);
void CUDA_CB sg_host_fn_run_callback(CUstream s, CUresult status, void *arg);
/* A graph host node runs on this thread: begin (at its launch's place in
 * stream order, seq 0 when not known yet), end. */
void sg_host_fn_node_begin(uint32_t stream, uint64_t seq);
void sg_host_fn_node_end(void);

/* ---- in the fault handler, sg_model_lock held ---- */
/* Whether the calling thread runs a host function or callback that stream
 * order places before copy c: its accesses to c's bytes come before c
 * starts, which cannot happen until it returns. Then c's guard is lifted
 * until it returns, and 1 is returned. */
int sg_host_fn_before_copy(struct sg_copy *c) SG_REQUIRES(sg_model_lock);
/* Whether the calling thread runs a host function, callback or graph host
 * node (work it is part of cannot go on while it waits). */
int sg_in_host_fn(void);

#endif
