/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the stream memory operations (write, wait, batch): stream work
 * with no host side. A wait is a gate (model/gates.c): it may pass only
 * when the host writes its word. */
#include "config.h"

#include "fault/wait.h"
#include "model/sync.h"
#include "preload/shim.h"

/* A wait-value operation: counted always, since copies enqueued behind it
 * later are behind it whether or not any copy is guarded now. */
#define SG_STREAM_GATE(symbol, per_thread, PARAMS, ...)                    \
    SG_CUDA_SHIM(symbol, PARAMS)                                           \
    {                                                                      \
        if (!SG_ENTER())                                                   \
            return SG_FORWARD(symbol, __VA_ARGS__);                        \
        SG_IN_ORDER();                                                     \
        sg_waiters_ensure(); /* a fault behind it waits boundedly */       \
        CUresult r = SG_FORWARD(symbol, __VA_ARGS__);                      \
        if (r == CUDA_SUCCESS)                                             \
            sg_note_gate(s, per_thread);                                   \
        return r;                                                          \
    }

#define MEMOP_PARAMS(T) (CUstream s, CUdeviceptr addr, T v, unsigned int flags)
SG_STREAM_WORK(cuStreamWriteValue32_v2, 0, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWriteValue32_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue32_v2, 0, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue32_v2_ptsz, 1, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWriteValue64_v2, 0, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_WORK(cuStreamWriteValue64_v2_ptsz, 1, s, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue64_v2, 0, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue64_v2_ptsz, 1, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)

#define BATCH_MEMOP_PARAMS \
    (CUstream s, unsigned int n, CUstreamBatchMemOpParams *ops, unsigned int flags)
SG_STREAM_GATE(cuStreamBatchMemOp_v2, 0, BATCH_MEMOP_PARAMS, s, n, ops, flags)
SG_STREAM_GATE(cuStreamBatchMemOp_v2_ptsz, 1, BATCH_MEMOP_PARAMS, s, n, ops, flags)
