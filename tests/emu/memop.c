/* SPDX-License-Identifier: Apache-2.0 */
/* memop.c - stream memory operations: cuStreamWaitValue32/64 and
 * cuStreamWriteValue32/64.  A wait blocks its stream until a word of
 * device or page-locked host memory satisfies the condition; the word is
 * read like a device reads it, so it may be host memory the program has
 * protected. */
#include "emu.h"

#include <string.h>

typedef struct value_op {
    emu_op op;
    uintptr_t addr;
    uint64_t value;
    size_t size;                /* 4 or 8 */
    bool host;                  /* the word is host memory: reach it by DMA */
    unsigned int cond;          /* CU_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR */
    /* A graph node's parameters as cuGraphBatchMemOpNodeGetParams gives
     * them back (filled when asked). */
    CUstreamBatchMemOpParams param;
} value_op;

/* The conditions of CUstreamWaitValue_flags; GEQ is cyclic, ignoring
 * wrap-around. */
static bool condition_holds(unsigned int cond, uint64_t cur, uint64_t value, size_t size)
{
    uint64_t mask = size == 4 ? 0xffffffffull : ~0ull;
    uint64_t diff = (cur - value) & mask;
    switch (cond) {
    case CU_STREAM_WAIT_VALUE_GEQ:
        return size == 4 ? (int32_t)(uint32_t)diff >= 0 : (int64_t)diff >= 0;
    case CU_STREAM_WAIT_VALUE_EQ:
        return cur == value;
    case CU_STREAM_WAIT_VALUE_AND:
        return (cur & value) != 0;
    default:                    /* CU_STREAM_WAIT_VALUE_NOR */
        return (~(cur | value) & mask) != 0;
    }
}

static bool wait_ready(emu_op *op)
{
    value_op *v = (value_op *)op;
    return condition_holds(v->cond, emu_dev_load(v->addr, v->size, v->host), v->value, v->size);
}

static void write_run(emu_op *op)
{
    value_op *v = (value_op *)op;
    emu_dev_store(v->addr, v->value, v->size, v->host);
}

/* A stream capture records them as batch memory operation nodes. */
static const emu_op_class wait_value_class = { .node_type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, .ready = wait_ready };
static const emu_op_class write_value_class = { .node_type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, .run = write_run };

/* The word must be aligned device memory or page-locked host memory. */
static CUresult locate_word(uintptr_t addr, size_t size, bool *host)
{
    if (addr % size)
        return CUDA_ERROR_INVALID_VALUE;
    emu_where w = emu_mem_where(addr, size);
    if (w != EMU_DEVICE && w != EMU_PINNED)
        return CUDA_ERROR_INVALID_VALUE;
    *host = w == EMU_PINNED;
    return CUDA_SUCCESS;
}

static CUresult enqueue_value_op(CUstream hs, emu_null_stream null_means, const emu_op_class *cls,
                                 CUdeviceptr addr, uint64_t value, size_t size, unsigned int cond)
{
    emu_lock();
    CUstream s;
    bool host = false;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS)
        r = locate_word((uintptr_t)addr, size, &host);
    if (r == CUDA_SUCCESS) {
        value_op *op = emu_op_new(cls, sizeof *op);
        op->addr = (uintptr_t)addr;
        op->value = value;
        op->size = size;
        op->host = host;
        op->cond = cond;
        uint64_t seq;
        r = emu_submit(s, &op->op, &seq);
    }
    emu_unlock();
    return r;
}

static CUresult wait_value(CUstream hs, CUdeviceptr addr, uint64_t value, size_t size, unsigned int flags,
                           emu_null_stream null_means)
{
    unsigned int cond = flags & ~(unsigned int)CU_STREAM_WAIT_VALUE_FLUSH;
    if (cond > CU_STREAM_WAIT_VALUE_NOR)
        return CUDA_ERROR_INVALID_VALUE;
    return enqueue_value_op(hs, null_means, &wait_value_class, addr, value, size, cond);
}

static CUresult write_value(CUstream hs, CUdeviceptr addr, uint64_t value, size_t size, unsigned int flags,
                            emu_null_stream null_means)
{
    if (flags & ~(unsigned int)CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER)
        return CUDA_ERROR_INVALID_VALUE;
    return enqueue_value_op(hs, null_means, &write_value_class, addr, value, size, 0);
}

/* Each operation under its four names: NAME_v2 and NAME_v2_ptsz, and the
 * CUDA 8.0/9.0 ABI names NAME and NAME_ptsz (from before memory operations
 * were always enabled: same signatures, same behaviour here).  The 32- and
 * 64-bit operations differ only in the word's size. */
#define VALUE_OP_ENTRY_POINTS(name, word_type, impl, size)                                                   \
    EMU_NULL_STREAM_ABIS(name##_v2, name##_v2_ptsz,                                                         \
                         (CUstream stream, CUdeviceptr addr, word_type value, unsigned int flags), impl,      \
                         stream, addr, value, size, flags)                                                    \
    CUresult CUDAAPI name(CUstream stream, CUdeviceptr addr, word_type value, unsigned int flags)             \
        EMU_OLD_ABI_OF(name##_v2);                                                                            \
    CUresult CUDAAPI name##_ptsz(CUstream stream, CUdeviceptr addr, word_type value, unsigned int flags)      \
        EMU_OLD_ABI_OF(name##_v2_ptsz);

VALUE_OP_ENTRY_POINTS(cuStreamWaitValue32, cuuint32_t, wait_value, 4)
VALUE_OP_ENTRY_POINTS(cuStreamWaitValue64, cuuint64_t, wait_value, 8)
VALUE_OP_ENTRY_POINTS(cuStreamWriteValue32, cuuint32_t, write_value, 4)
VALUE_OP_ENTRY_POINTS(cuStreamWriteValue64, cuuint64_t, write_value, 8)

/* cuStreamBatchMemOp: the operations in turn, as the single calls would
 * enqueue them (after checking them all: a bad one enqueues nothing).
 * Flushes and barriers order nothing more on a stream that runs one
 * operation at a time. */
static bool batch_op_known(const CUstreamBatchMemOpParams *op)
{
    switch (op->operation) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
    case CU_STREAM_MEM_OP_BARRIER:
        return true;
    default:
        return false;
    }
}

static CUresult batch_mem_op(CUstream hs, unsigned int n, CUstreamBatchMemOpParams *ops,
                             unsigned int flags, emu_null_stream null_means)
{
    if (flags || (n && !ops) || n > 256)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned int i = 0; i < n; i++)
        if (!batch_op_known(&ops[i]))
            return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    for (unsigned int i = 0; r == CUDA_SUCCESS && i < n; i++) {
        const CUstreamBatchMemOpParams *op = &ops[i];
        switch (op->operation) {
        case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        case CU_STREAM_MEM_OP_WAIT_VALUE_64: {
            bool is32 = op->operation == CU_STREAM_MEM_OP_WAIT_VALUE_32;
            r = wait_value(hs, op->waitValue.address,
                           is32 ? op->waitValue.value : op->waitValue.value64, is32 ? 4 : 8,
                           op->waitValue.flags, null_means);
            break;
        }
        case CU_STREAM_MEM_OP_WRITE_VALUE_32:
        case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
            bool is32 = op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32;
            r = write_value(hs, op->writeValue.address,
                            is32 ? op->writeValue.value : op->writeValue.value64, is32 ? 4 : 8,
                            op->writeValue.flags, null_means);
            break;
        }
        default:
            break;
        }
    }
    return r;
}

EMU_NULL_STREAM_ABIS(cuStreamBatchMemOp_v2, cuStreamBatchMemOp_v2_ptsz,
                     (CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
                      unsigned int flags),
                     batch_mem_op, stream, count, paramArray, flags)

/* ---- graph memory operation nodes ---------------------------------------- */

/* A node of one wait or write: the operation each launch enqueues (lock
 * held). */
CUresult emu_value_node_op(const CUstreamBatchMemOpParams *p, emu_op **out)
{
    const struct CUstreamMemOpWaitValueParams_st *w = &p->waitValue;
    bool wait = p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_32 || p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
    bool write = p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32 || p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
    if (!wait && !write)
        return CUDA_ERROR_NOT_SUPPORTED;
    size_t size = p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64 || p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64 ? 8 : 4;
    unsigned int cond = wait ? w->flags & ~(unsigned int)CU_STREAM_WAIT_VALUE_FLUSH : 0;
    if (cond > CU_STREAM_WAIT_VALUE_NOR)
        return CUDA_ERROR_INVALID_VALUE;
    bool host = false;
    CUresult r = locate_word((uintptr_t)w->address, size, &host);
    if (r != CUDA_SUCCESS)
        return r;
    value_op *op = emu_op_new(wait ? &wait_value_class : &write_value_class, sizeof *op);
    op->addr = (uintptr_t)w->address;
    op->value = size == 8 ? w->value64 : w->value;
    op->size = size;
    op->host = host;
    op->cond = cond;
    *out = &op->op;
    return CUDA_SUCCESS;
}

void emu_value_op_params(emu_op *op, CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
    value_op *v = (value_op *)op;
    bool wait = op->cls == &wait_value_class;
    memset(&v->param, 0, sizeof v->param);
    v->param.operation = wait ? (v->size == 8 ? CU_STREAM_MEM_OP_WAIT_VALUE_64 : CU_STREAM_MEM_OP_WAIT_VALUE_32)
                              : (v->size == 8 ? CU_STREAM_MEM_OP_WRITE_VALUE_64 : CU_STREAM_MEM_OP_WRITE_VALUE_32);
    v->param.waitValue.address = (CUdeviceptr)v->addr; /* same layout in writeValue */
    if (v->size == 8)
        v->param.waitValue.value64 = v->value;
    else
        v->param.waitValue.value = (cuuint32_t)v->value;
    v->param.waitValue.flags = v->cond;
    memset(p, 0, sizeof *p);
    emu_ctx_current(&p->ctx);
    p->count = 1;
    p->paramArray = &v->param;
}
