/* SPDX-License-Identifier: Apache-2.0 */
/* dw_graph_flag_poll_ok: completion learnt from a flag written by a graph.
 * A captured graph copies device words to pinned memory and then writes 1
 * into a pinned flag (cuStreamWriteValue32 captured: a memory operation
 * node after the memcpy node).  The host spins on the flag until it reads
 * 1, then reads the copy's destination: seeing the flag's value observes
 * everything before the write, so no report.  Twin:
 * dw_graph_write_value_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    volatile uint32_t *flag = sgt_pinned(sizeof *flag);
    *flag = 0;
    CUstream c = sgt_stream(CU_STREAM_NON_BLOCKING), s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    CUgraphExec exec;
    SGT_CHECK(cuStreamBeginCapture(c, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, c));
    SGT_CHECK(cuStreamWriteValue32(c, (CUdeviceptr)(uintptr_t)flag, 1, 0));
    SGT_CHECK(cuStreamEndCapture(c, &g));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release(hold);
    while (*flag != 1) /* the host learns of the write... */
        ;
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* ...and of the copy before it */
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "after the flag was seen");
}
