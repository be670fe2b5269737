/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_host_node_root_race: graphs completely: host nodes however they are
 * created.  When a host node runs, the nodes it depends on are complete.
 * Here the host node (made with cuGraphAddNode) is a root; the memcpy node
 * (device to pinned host) waits, through an event wait node, for a held
 * stream.  The host thread sees the host node's flag and reads: a race.
 * Its twin makes the host node depend on the memcpy node.  Built with
 * SG_HOST_SET (cuGraphHostNodeSetParams), SG_NODE_SET
 * (cuGraphNodeSetParams) or SG_EXEC_SET (cuGraphExecHostNodeSetParams)
 * the host node is made with cuGraphAddHostNode and a placeholder function,
 * and gets its function from that call.  Twin: m_graph_host_node_after_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_host_node_root_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_host_node_after_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

static void CUDA_CB placeholder(void *arg)
{
    (void)arg;
}

/* The host node, depending on deps (n of them). */
static CUgraphNode add_host_node(CUgraph g, CUgraphNode *deps, size_t n)
{
    CUgraphNode node;
#if defined(SG_HOST_SET) || defined(SG_NODE_SET) || defined(SG_EXEC_SET)
    CUDA_HOST_NODE_PARAMS hp = { placeholder, NULL };
    SGT_CHECK(cuGraphAddHostNode(&node, g, deps, n, &hp));
#else
    CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_HOST };
    np.host.fn = sgt_set_done;
    (void)placeholder;
    SGT_CHECK(cuGraphAddNode(&node, g, deps, NULL, n, &np));
#endif
#if defined(SG_HOST_SET)
    CUDA_HOST_NODE_PARAMS set = { sgt_set_done, NULL };
    SGT_CHECK(cuGraphHostNodeSetParams(node, &set));
#elif defined(SG_NODE_SET)
    CUgraphNodeParams set = { .type = CU_GRAPH_NODE_TYPE_HOST };
    set.host.fn = sgt_set_done;
    SGT_CHECK(cuGraphNodeSetParams(node, &set));
#endif
    return node;
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING), gate = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent opened = sgt_event();
    CUgraph g;
    CUgraphNode hnode, wait, copy;
    CUDA_MEMCPY3D p = sgt_flat_dtoh(host, dev);
    SGT_CHECK(cuGraphCreate(&g, 0));
#ifdef SG_TWIN
    SGT_CHECK(cuGraphAddEventWaitNode(&wait, g, NULL, 0, opened));
    SGT_CHECK(cuGraphAddMemcpyNode(&copy, g, &wait, 1, &p, ctx));
    hnode = add_host_node(g, &copy, 1);
#else
    hnode = add_host_node(g, NULL, 0);
    SGT_CHECK(cuGraphAddEventWaitNode(&wait, g, NULL, 0, opened));
    SGT_CHECK(cuGraphAddMemcpyNode(&copy, g, &wait, 1, &p, ctx));
#endif
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
#ifdef SG_EXEC_SET
    CUDA_HOST_NODE_PARAMS set = { sgt_set_done, NULL };
    SGT_CHECK(cuGraphExecHostNodeSetParams(exec, hnode, &set));
#endif
    sgt_hold *hold = sgt_hold_stream(gate);
    SGT_CHECK(cuEventRecord(opened, gate));
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN
    sgt_release(hold);
    sgt_wait_done();                    /* spins until the host node ran */
#else
    sgt_wait_done();
    sgt_release_when_host_waits(hold);
#endif
    (void)hnode;
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after the graph's host node ran");
}
