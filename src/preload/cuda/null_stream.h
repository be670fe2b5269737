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

#include "devmem/devmem.h"
#include "life/site.h"
#include "model/incall.h"
#include "model/model.h"
#include "model/sync.h"
#include "preload/shim.h"

/* The shim of such a call. done: an expression of the parameters, whether
 * the call returns once complete; note: the statement that counts it as
 * work on its stream when it does not (sg_note_stream_work(NULL,
 * per_thread) for most); dev: the statement that names its device memory
 * operands to devmem/ (SG_DEV_ADD, SG_DEV_MEMSET; SG_DEV_NONE). A call
 * that waits is never made holding the enqueue order lock; without pinned
 * memory nor device operands nothing can be guarded or followed, and the
 * call passes straight through. The driver may touch host operands itself
 * inside the call (model/incall.h). */
#define SG_NULL_STREAM_CALL(symbol, api, per_thread, done, note, dev, PARAMS, ...)             \
    SG_CUDA_SHIM(symbol, PARAMS)                                                               \
    {                                                                                          \
        if (!SG_ENTER())                                                                       \
            return SG_FORWARD(symbol, __VA_ARGS__);                                            \
        struct sg_dev_op dop_;                                                                 \
        sg_devmem_op_init(&dop_, api, SG_ORIGIN_COPY, NULL, per_thread);                       \
        dev;                                                                                   \
        if (!dop_.n && !sg_pinned_any())                                                       \
            return SG_FORWARD(symbol, __VA_ARGS__);                                            \
        sg_devmem_before(&dop_);                                                               \
        CUresult r;                                                                            \
        if (!(done)) {                                                                         \
            SG_IN_ORDER();                                                                     \
            r = SG_FORWARD_IN_CALL(api, NULL, per_thread, symbol, __VA_ARGS__);                \
            if (r == CUDA_SUCCESS && sg_observe_needed())                                      \
                note;                                                                          \
        } else if (!sg_observe_needed()) {                                                     \
            r = SG_FORWARD(symbol, __VA_ARGS__);                                               \
        } else {                                                                               \
            r = SG_COMPLETING_COPY(api, NULL, per_thread,                                      \
                                   SG_FORWARD_IN_CALL(api, NULL, per_thread, symbol,           \
                                                      __VA_ARGS__));                           \
        }                                                                                      \
        sg_devmem_after(&dop_, r == CUDA_SUCCESS);                                             \
        return r;                                                                              \
    }

/* What a shim tells devmem/ of its device operands (dop_: its operation). */
#define SG_DEV_NONE ((void)0)
#define SG_DEV_ADD(p, n, write) sg_devmem_op_add(&dop_, (CUdeviceptr)(p), (n), (write))
#define SG_DEV_MEMSET(p, n) (dop_.origin = SG_ORIGIN_MEMSET, SG_DEV_ADD(p, n, 1))
#define SG_DEV_COPY(d, s, n) (SG_DEV_ADD(d, n, 1), SG_DEV_ADD(s, n, 0))

/* The usual note: one operation on the null stream. */
#define SG_NULL_STREAM_NOTE(per_thread) sg_note_stream_work(NULL, per_thread)

#endif
