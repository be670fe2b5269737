/* SPDX-License-Identifier: Apache-2.0 */
/* Host functions and stream callbacks. When the driver starts one, all
 * work enqueued before it on its stream is complete, and the host thread
 * running it knows that: syncguard's trampoline observes it, then calls the
 * program's function. Host synchronization is not tracked between host
 * threads (a copy observed complete by one is released for all), so a
 * thread that waits for the callback is covered too. */
#include "config.h"

#include <stdlib.h>

#include "life/hostfn.h"
#include "life/life.h"
#include "model/sync.h"

struct sg_host_fn *sg_host_fn_prepare(CUstream s, int per_thread, const char *api, int capturing)
{
    if (!sg_observe_needed() || capturing > 0 ||
        (capturing < 0 && sg_stream_is_capturing(s, per_thread)))
        return NULL;
    struct sg_host_fn *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    sg_sync_op_begin(&t->op, api, SG_SYNC_HOST_FN, s, per_thread);
    return t;
}

void sg_host_fn_discard(struct sg_host_fn *t)
{
    sg_vc_free(&t->op.covered);
    free(t);
}

void CUDA_CB sg_host_fn_run(void *arg)
{
    struct sg_host_fn *t = arg;
    sg_sync_op_end(&t->op, 1);
    t->fn(t->data);
    free(t);
}

void CUDA_CB sg_host_fn_run_callback(CUstream s, CUresult status, void *arg)
{
    struct sg_host_fn *t = arg;
    sg_sync_op_end(&t->op, status == CUDA_SUCCESS);
    t->cb(s, status, t->data);
    free(t);
}

