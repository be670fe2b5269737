/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_memset_set_race: a graph's memset node made on device
 * memory; after instantiation cuGraphExecMemsetNodeSetParams points the
 * executable graph's node at pinned host memory.  The next launch writes
 * the pinned words in stream order, and the host reads them before
 * observing it: reported (syncguard models the node as it was set, not as
 * it was made).  Twins: m_graph_exec_memset_set_ok (made on the pinned
 * words, set to device memory: the launch writes no host memory and the
 * host's accesses race with nothing) and m_graph_exec_node_memset_race
 * (this program, the update through cuGraphExecNodeSetParams); the same
 * for a child graph holding the memset, set with
 * cuGraphExecChildGraphNodeSetParams: m_graph_exec_child_set_race and _ok,
 * m_graph_exec_node_child_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Memset enqueued on .* by cuGraphLaunch .memset node.
 */
/* This program is also built as its twins: SG_TWIN for the lines under
 * #ifdef SG_TWIN, SG_GENERIC for the update through
 * cuGraphExecNodeSetParams, SG_CHILD for the memset in a child graph. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

#define MARK 0x600dcafeu /* what the memset writes */

#ifdef SG_CHILD
/* The child graph node takes the parameters of graph `set`. */
static void update(CUgraphExec exec, CUgraphNode node, CUgraph set)
{
#ifdef SG_GENERIC
    CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_GRAPH };
    np.graph.graph = set;
    SGT_CHECK(cuGraphExecNodeSetParams(exec, node, &np));
#else
    SGT_CHECK(cuGraphExecChildGraphNodeSetParams(exec, node, set));
#endif
}
#else
/* The memset node takes the parameters `set`. */
static void update(CUgraphExec exec, CUgraphNode node, CUDA_MEMSET_NODE_PARAMS set, CUcontext ctx)
{
#ifdef SG_GENERIC
    CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_MEMSET };
    np.memset = (CUDA_MEMSET_NODE_PARAMS_v2){ set.dst, set.pitch, set.value, set.elementSize, set.width,
                                              set.height, ctx };
    SGT_CHECK(cuGraphExecNodeSetParams(exec, node, &np));
#else
    SGT_CHECK(cuGraphExecMemsetNodeSetParams(exec, node, &set, ctx));
#endif
}
#endif

/* The executable graph of a memset node (or a child graph node holding
 * one) made with `made`, then given `set`'s parameters; *g and *other:
 * the graphs to destroy (NULL: none). */
static CUgraphExec made_then_set(CUDA_MEMSET_NODE_PARAMS made, CUDA_MEMSET_NODE_PARAMS set, CUcontext ctx,
                                 CUgraph *g, CUgraph *other)
{
    CUgraphNode node;
    CUgraphExec exec;
#ifdef SG_CHILD
    CUgraphNode inner;
    CUgraph child = sgt_memset_graph(made, ctx, &inner);
    *other = sgt_memset_graph(set, ctx, &inner);
    SGT_CHECK(cuGraphCreate(g, 0));
    SGT_CHECK(cuGraphAddChildGraphNode(&node, *g, NULL, 0, child));
    SGT_CHECK(cuGraphDestroy(child)); /* the node holds a clone */
    SGT_CHECK(cuGraphInstantiate(&exec, *g, 0));
    update(exec, node, *other);
#else
    *g = sgt_memset_graph(made, ctx, &node);
    *other = NULL;
    SGT_CHECK(cuGraphInstantiate(&exec, *g, 0));
    update(exec, node, set, ctx);
#endif
    return exec;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUdeviceptr pinned = (CUdeviceptr)(uintptr_t)host;
#ifdef SG_TWIN /* made on the pinned words, set to device memory */
    CUdeviceptr made_on = pinned, set_to = dev;
#else
    CUdeviceptr made_on = dev, set_to = pinned;
#endif
    CUgraph g, other;
    CUgraphExec exec = made_then_set(sgt_memset_words(made_on, MARK, SGT_WORDS),
                                     sgt_memset_words(set_to, MARK, SGT_WORDS), ctx, &g, &other);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* the launch writes device memory only: the host's words stay its own */
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = MARK;
#endif
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, MARK); /* the race, unless a twin */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, MARK);
#ifdef SG_TWIN
    static uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, dev, sizeof back));
    late += SGT_COUNT_WRONG(back, SGT_WORDS, MARK); /* the device words were set */
#endif
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    if (other)
        SGT_CHECK(cuGraphDestroy(other));
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(early, late, "cuStreamSynchronize");
}
