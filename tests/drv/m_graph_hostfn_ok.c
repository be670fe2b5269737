/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_hostfn_ok: graphs.  A captured host function that follows the
 * captured copy runs, at each launch, after the copy node completed: the
 * host thread that sees its flag knows the copy is complete, as with
 * cuLaunchHostFunc.  Twin: m_capture_launch_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>

#include "sgtest.h"
#include "sgt_shapes.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    CUgraphExec exec;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuLaunchHostFunc(s, sgt_set_done, NULL));
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release(hold);
    sgt_wait_done();
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after the graph's host node ran");
}
