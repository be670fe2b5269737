/* What the intercept shims tell the model: the host is about to wait for
 * something (snapshot what it covers), and then did see it complete. Each
 * function takes sg_model_lock itself. */
#ifndef SYNCGUARD_OBSERVE_H
#define SYNCGUARD_OBSERVE_H

#include <cuda.h>

#include "syncguard/model.h"

/* Whether any copy is guarded: when none is, observations and event
 * bookkeeping cannot matter to any copy, and shims skip them. */
int sg_observe_needed(void);

void sg_snapshot_stream(CUstream s, int per_thread, struct sg_vc *out);
/* For an operation the call itself enqueues and waits for (sync copies). */
void sg_snapshot_sync_op(CUstream s, int per_thread, struct sg_vc *out);
void sg_snapshot_event(CUevent e, struct sg_vc *out);
void sg_snapshot_current_ctx(struct sg_vc *out);
void sg_snapshot_ctx(CUcontext ctx, struct sg_vc *out);
/* If ok, releases the copies vc covers; frees vc either way. */
void sg_observe_if(int ok, struct sg_vc *vc);

void sg_note_event_record(CUevent e, CUstream s, int per_thread);
void sg_note_stream_wait(CUstream s, int per_thread, CUevent e);
/* Untracked work (a kernel, a memset) enqueued on a stream. */
void sg_note_stream_work(CUstream s, int per_thread);

/* Whether a pointer is host memory (pinned, or unknown to the driver). */
int sg_is_host_pointer(CUdeviceptr p);

#endif
