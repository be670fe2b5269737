/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_instantiate_v11_race: graphs.  A CUDA 11.x runtime instantiates
 * graphs through cuGetProcAddress("cuGraphInstantiate", 11000), which
 * answers the 11.0 ABI cuGraphInstantiate_v2 (error node and log buffer
 * instead of flags).  The memcpy node's copy runs at the launch all the
 * same: reading before synchronizing is a race.  Twin:
 * m_graph_memcpy_node_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_instantiate_v11_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

typedef CUresult (*instantiate_v11_fn)(CUgraphExec *, CUgraph, CUgraphNode *, char *, size_t);

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    instantiate_v11_fn instantiate = (instantiate_v11_fn)sgt_proc("cuGraphInstantiate", 11000);
    CUgraphExec exec;
    char log[64];
    SGT_CHECK(instantiate(&exec, sgt_memcpy_graph(sgt_flat_dtoh(host, dev), ctx), NULL, log, sizeof log));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read after cuGraphLaunch, before synchronizing");
}
