/* SPDX-License-Identifier: Apache-2.0 */
/* Synchronous calls (no Async suffix) are work on the null stream: the
 * legacy default stream, or the calling thread's per-thread stream for
 * their _ptds forms. Whether the host waits for one depends on its
 * operands (API synchronization behavior): a copy with a host side, or a
 * memset of pinned or managed memory, returns once complete, which
 * observes the stream's earlier work (SG_COMPLETING_COPY); a memset of
 * device memory or a device-to-device copy returns at once, and is work
 * on the stream like an asynchronous one: on the legacy stream it waits
 * for the blocking streams' earlier work, and their later work waits for
 * it. */
#ifndef SG_PRELOAD_CUDA_NULL_STREAM_H
#define SG_PRELOAD_CUDA_NULL_STREAM_H

#include "life/site.h"
#include "model/incall.h"
#include "model/model.h"
#include "model/sync.h"
#include "preload/shim.h"

/* The shim of such a call. done: an expression of the parameters, whether
 * the call returns once complete; note: the statement that counts it as
 * work on its stream when it does not (sg_note_stream_work(NULL,
 * per_thread) for most). A call that waits is never made holding the
 * enqueue order lock; without pinned memory nothing can be guarded, and
 * the call passes straight through. The driver may touch host operands
 * itself inside the call (model/incall.h). */
#define SG_NULL_STREAM_CALL(symbol, api, per_thread, done, note, PARAMS, ...)                  \
    SG_CUDA_SHIM(symbol, PARAMS)                                                               \
    {                                                                                          \
        if (!SG_ENTER() || !sg_pinned_any())                                                   \
            return SG_FORWARD(symbol, __VA_ARGS__);                                            \
        if (done) {                                                                            \
            if (!sg_observe_needed())                                                          \
                return SG_FORWARD(symbol, __VA_ARGS__);                                        \
            return SG_COMPLETING_COPY(api, NULL, per_thread,                                   \
                                      SG_FORWARD_IN_CALL(api, NULL, per_thread, symbol,        \
                                                         __VA_ARGS__));                        \
        }                                                                                      \
        SG_IN_ORDER();                                                                         \
        CUresult r = SG_FORWARD_IN_CALL(api, NULL, per_thread, symbol, __VA_ARGS__);           \
        if (r == CUDA_SUCCESS && sg_observe_needed())                                          \
            note;                                                                              \
        return r;                                                                              \
    }

/* The usual note: one operation on the null stream. */
#define SG_NULL_STREAM_NOTE(per_thread) sg_note_stream_work(NULL, per_thread)

#endif
