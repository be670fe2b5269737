/* SPDX-License-Identifier: Apache-2.0 */
/* m_sample_graph_nodes_race: the sampled mode decides per graph launch,
 * not per node. A graph of two memcpy nodes, device to pinned a and to
 * pinned b, is launched on each of 6 steps, and a is read too early. With
 * sample=2, sample_first=0 the site's launches 1, 3 and 5 are guarded,
 * both nodes each time: those reads wait for their launch and the first is
 * reported. A decision per node alternated between the two nodes, so the
 * same one was guarded on every launch. Twin: m_sample_graph_nodes_ok.
 *
 * SG-OPTIONS: sample=2:sample_first=0:verbosity=1
 * SG-EXPECT: early-host-read
 * SG-GREP: ^racy reads that waited for their launch: 1 3 5$
 * SG-GREP: ^==[0-9]*==syncguard: stats: .*, copies_sampled_out=3,
 * SG-GREP: ^==[0-9]*==syncguard:   3 guarded, 3 sampled out: m_sample_graph_nodes_race.c:[0-9]* in main$
 */
#include "sample_step.h"

#ifndef SG_TWIN
#define SG_TWIN 0
#endif
#define STEPS 6

static volatile int steps = STEPS; /* not a constant: the loop stays one site */

/* A memcpy node of g copying STEP_BYTES of dev into host. */
static void add_dtoh_node(CUgraph g, CUcontext ctx, uint32_t *host, CUdeviceptr dev)
{
    CUDA_MEMCPY3D p = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev,
        .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host,
        .WidthInBytes = STEP_BYTES, .Height = 1, .Depth = 1,
    };
    CUgraphNode node;
    SGT_CHECK(cuGraphAddMemcpyNode(&node, g, NULL, 0, &p, ctx));
}

int main(void)
{
    CUdeviceptr dev;
    CUstream s = step_start(&dev);
    CUcontext ctx;
    SGT_CHECK(cuCtxGetCurrent(&ctx));
    uint32_t *a = sgt_pinned(STEP_BYTES), *b = sgt_pinned(STEP_BYTES);
    CUgraph g;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    add_dtoh_node(g, ctx, a, dev);
    add_dtoh_node(g, ctx, b, dev);
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    struct sample_log log = { "", 0 };
    for (int step = 0, n = steps; step < n; step++) {
        for (unsigned i = 0; i < STEP_WORDS; i++)
            b[i] = SGT_OLD;
        sgt_hold *h = step_begin(s, a);
        SGT_CHECK(cuGraphLaunch(exec, s)); /* the site */
        step_end(&log, h, s, a, step, !SG_TWIN); /* the racy read: a */
        log.late_wrong += step_wrong(b);
    }
    printf("racy reads that waited for their launch:%s\n", log.waited);
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    SGT_CHECK(cuMemFreeHost(a));
    SGT_CHECK(cuMemFreeHost(b));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return step_verdict(&log);
}
