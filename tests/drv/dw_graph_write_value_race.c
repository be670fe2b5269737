/* SPDX-License-Identifier: Apache-2.0 */
/* dw_graph_write_value_race: a graph's memory operation node writes a word.
 * Made with cuGraphAddBatchMemOpNode on a device word, the executable
 * graph's node is then set (cuGraphExecBatchMemOpNodeSetParams) to a word
 * of pinned host memory.  The launch is pending (behind a hold) and the
 * host writes the word first: the device's store would overwrite the
 * host's; syncguard must report the write and let it land after the
 * store, so the host's value survives.  Twin: dw_graph_flag_poll_ok (a
 * captured write the host only polls).
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: host write to a pinned word that a stream memory write still in flight targets
 * SG-GREP: Memory write enqueued on .* by cuGraphLaunch .memory operation node.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sgtest.h"

/* A node's single 32-bit write of value to addr. */
static CUDA_BATCH_MEM_OP_NODE_PARAMS one_write(CUstreamBatchMemOpParams *op, CUdeviceptr addr,
                                               uint32_t value)
{
    memset(op, 0, sizeof *op);
    op->writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
    op->writeValue.address = addr;
    op->writeValue.value = value;
    CUDA_BATCH_MEM_OP_NODE_PARAMS p = { .ctx = NULL, .count = 1, .paramArray = op, .flags = 0 };
    SGT_CHECK(cuCtxGetCurrent(&p.ctx));
    return p;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    volatile uint32_t *word = sgt_pinned(sizeof *word);
    *word = 0;
    CUdeviceptr dword = sgt_device_words(1, 0);

    CUstreamBatchMemOpParams op;
    CUDA_BATCH_MEM_OP_NODE_PARAMS p = one_write(&op, dword, 7);
    CUgraph g;
    CUgraphNode node;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddBatchMemOpNode(&node, g, NULL, 0, &p));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    p = one_write(&op, (CUdeviceptr)(uintptr_t)word, 7);
    SGT_CHECK(cuGraphExecBatchMemOpNodeSetParams(exec, node, &p));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
    *word = 9; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t got = *word;
    printf("the word after the stream: %u (the host wrote 9, the device 7)\n", got);
    printf("check: %s\n", got == 9 ? "ok" : "MISMATCH the device's store overwrote the host's");
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    return got != 9;
}
