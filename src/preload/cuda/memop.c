/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the stream memory operations (write, wait, batch). A wait is a
 * gate (model/gates.c): it may pass only when the host writes its word. A
 * write of a word of pinned host memory (by its host address or the
 * device's own address of mapped memory) lands in stream order: the word
 * is guarded as a flag (SG_GUARD_FLAG: the host writing it first is a
 * race, the host reading it is a poll, and the poll that sees the write
 * landed observes its stream; fault/flag.c). */
#include "config.h"

#include "fault/wait.h"
#include "life/site.h"
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

/* Guards the word a write targets, if it is pinned host memory. */
static void guard_word(struct copy_call *call, CUdeviceptr addr, size_t size, uint64_t value)
{
    uintptr_t host = sg_copy_mapped_side(addr);
    call->value = value;
    if (host)
        sg_copy_call_guard(call, host, sg_shape_linear(size), SG_GUARD_FLAG);
}

static void write_accepted(const char *api, CUstream s, int per_thread, CUdeviceptr addr,
                           size_t size, uint64_t value)
{
    struct copy_call call;
    sg_copy_call_init(&call, api, s, per_thread);
    call.origin = SG_ORIGIN_MEMOP;
    guard_word(&call, addr, size, value);
    sg_copy_call_done(&call);
}

#define MEMOP_PARAMS(T) (CUstream s, CUdeviceptr addr, T v, unsigned int flags)
#define WRITE_VALUE(symbol, api, per_thread, T)                                         \
    SG_CUDA_SHIM(symbol, MEMOP_PARAMS(T))                                            \
    {                                                                                \
        SG_IN_ORDER();                                                               \
        CUresult r = SG_FORWARD(symbol, s, addr, v, flags);                          \
        if (r == CUDA_SUCCESS && SG_ENTER())                                         \
            write_accepted(api, s, per_thread, addr, sizeof(T), v);                  \
        return r;                                                                    \
    }

WRITE_VALUE(cuStreamWriteValue32_v2, "cuStreamWriteValue32", 0, cuuint32_t)
WRITE_VALUE(cuStreamWriteValue32_v2_ptsz, "cuStreamWriteValue32", 1, cuuint32_t)
WRITE_VALUE(cuStreamWriteValue64_v2, "cuStreamWriteValue64", 0, cuuint64_t)
WRITE_VALUE(cuStreamWriteValue64_v2_ptsz, "cuStreamWriteValue64", 1, cuuint64_t)
SG_STREAM_GATE(cuStreamWaitValue32_v2, 0, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue32_v2_ptsz, 1, MEMOP_PARAMS(cuuint32_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue64_v2, 0, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)
SG_STREAM_GATE(cuStreamWaitValue64_v2_ptsz, 1, MEMOP_PARAMS(cuuint64_t), s, addr, v, flags)

/* A batch is a gate (it may wait), and each of its writes guards its
 * word, after the gate. */
static void batch_writes(CUstream s, int per_thread, unsigned int n,
                         const CUstreamBatchMemOpParams *ops)
{
    struct copy_call call;
    sg_copy_call_init(&call, "cuStreamBatchMemOp", s, per_thread);
    call.origin = SG_ORIGIN_MEMOP;
    for (unsigned int i = 0; ops && i < n; i++) {
        const struct CUstreamMemOpWriteValueParams_st *w = &ops[i].writeValue;
        int is32 = ops[i].operation == CU_STREAM_MEM_OP_WRITE_VALUE_32;
        if (is32 || ops[i].operation == CU_STREAM_MEM_OP_WRITE_VALUE_64)
            guard_word(&call, w->address, is32 ? 4 : 8, is32 ? w->value : w->value64);
    }
    if (call.captured)
        sg_copy_call_done(&call);
}

#define BATCH_MEMOP(symbol, per_thread)                                                   \
    SG_CUDA_SHIM(symbol,                                                               \
                 (CUstream s, unsigned int n, CUstreamBatchMemOpParams *ops, unsigned int f)) \
    {                                                                                  \
        if (!SG_ENTER())                                                               \
            return SG_FORWARD(symbol, s, n, ops, f);                                   \
        SG_IN_ORDER();                                                                 \
        sg_waiters_ensure();                                                           \
        CUresult r = SG_FORWARD(symbol, s, n, ops, f);                                 \
        if (r == CUDA_SUCCESS) {                                                       \
            sg_note_gate(s, per_thread);                                               \
            batch_writes(s, per_thread, n, ops);                                       \
        }                                                                              \
        return r;                                                                      \
    }

BATCH_MEMOP(cuStreamBatchMemOp_v2, 0)
BATCH_MEMOP(cuStreamBatchMemOp_v2_ptsz, 1)
