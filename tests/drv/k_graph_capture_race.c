/* SPDX-License-Identifier: Apache-2.0 */
/* k_graph_capture_race: a kernel launch writing pinned host memory is
 * captured into a graph (the capture runs nothing, so nothing is guarded
 * then); each launch of the executable graph runs the kernel node, which
 * may write that memory until the host observes the graph launch.  The
 * host reads before it has: syncguard must report the read, naming the
 * kernel and the graph launch, wait, and let the read see the kernel's
 * words.  Twin: k_graph_capture_sync_ok.
 *
 * SG-EXPECT: kernel-early-host-read
 * SG-GREP: Kernel sgt_fill launched on stream .* by cuGraphLaunch .kernel node.
 */
#include "k_launch.h"

/* A graph of one kernel node: sgt_fill(p, SGT_WORDS, v), captured. */
static CUgraphExec captured_fill(CUdeviceptr p, uint32_t v)
{
    CUstream c = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    CUgraphExec exec;
    SGT_CHECK(cuStreamBeginCapture(c, CU_STREAM_CAPTURE_MODE_GLOBAL));
    k_fill(K_LAUNCH, c, p, v);
    SGT_CHECK(cuStreamEndCapture(c, &g));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    SGT_CHECK(cuGraphDestroy(g));
    SGT_CHECK(cuStreamDestroy(c));
    return exec;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    k_load_kernels(); /* before any hold: a load waits for the device */
    CUgraphExec exec = captured_fill((CUdeviceptr)(uintptr_t)host, SGT_NEW);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* k_graph_capture_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif

    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuGraphExecDestroy(exec));
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
