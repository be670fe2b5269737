/* SPDX-License-Identifier: Apache-2.0 */
/* graph_update.c: the generic node API, parameter changes of graphs and of
 * executable graphs (from the next launch on; memcpy, host, memset, event
 * and child graph nodes), cuGraphExecUpdate (same topology only) and IF
 * conditional nodes (their body runs when the default value assigned at
 * each launch is non-zero). */
#include "t-util.h"

#define N 4096

static int runs;
static void CUDA_CB count(void *arg)
{
    (void)arg;
    runs++;
}
static void CUDA_CB count_twice(void *arg)
{
    (void)arg;
    runs += 2;
}

static CUDA_MEMCPY3D dtoh(void *h, CUdeviceptr d)
{
    return (CUDA_MEMCPY3D){ .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = d,
                            .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = h,
                            .WidthInBytes = N, .Height = 1, .Depth = 1 };
}

static void launch(CUgraphExec x, CUstream s)
{
    SGT_CHECK(cuGraphLaunch(x, s));
    SGT_CHECK(cuStreamSynchronize(s));
}

int main(void)
{
    sgt_watchdog(30);
    CUcontext ctx = sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *a = pinned_zeroed(N), *b = pinned_zeroed(N);

    /* A memcpy node changed in the executable graph copies to b next time. */
    CUgraph g;
    CUgraphNode copy, host;
    SGT_CHECK(cuGraphCreate(&g, 0));
    CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_MEMCPY };
    np.memcpy.copyParams = dtoh(a, d);
    np.memcpy.copyCtx = ctx;
    SGT_CHECK(cuGraphAddNode(&copy, g, NULL, NULL, 0, &np));
    CUgraphNodeParams hp = { .type = CU_GRAPH_NODE_TYPE_HOST };
    hp.host.fn = count;
    SGT_CHECK(cuGraphAddNode(&host, g, &copy, NULL, 1, &hp));
    CUgraphExec x;
    SGT_CHECK(cuGraphInstantiate(&x, g, 0));
    CUDA_MEMCPY3D to_b = dtoh(b, d);
    SGT_CHECK(cuGraphExecMemcpyNodeSetParams(x, copy, &to_b, ctx));
    launch(x, s);
    SGT_EXPECT(all_zero(a, N) && has_pattern(b, N, 1) && runs == 1);

    /* A host function changed in the executable graph; the graph keeps its own. */
    CUDA_HOST_NODE_PARAMS twice = { count_twice, NULL };
    SGT_CHECK(cuGraphExecHostNodeSetParams(x, host, &twice));
    launch(x, s);
    SGT_EXPECT(runs == 3);
    CUgraphExec x2;
    SGT_CHECK(cuGraphInstantiate(&x2, g, 0));
    launch(x2, s);
    SGT_EXPECT(runs == 4 && has_pattern(a, N, 1));

    /* cuGraphNodeSetParams changes the graph, for later instantiations. */
    SGT_CHECK(cuGraphNodeSetParams(host, &(CUgraphNodeParams){ .type = CU_GRAPH_NODE_TYPE_HOST,
                                                              .host = { count_twice, NULL } }));
    launch(x2, s);
    SGT_EXPECT(runs == 5);

    /* cuGraphExecUpdate: the same topology takes the new parameters... */
    memset(a, 0, N), memset(b, 0, N);
    SGT_CHECK(cuGraphMemcpyNodeSetParams(copy, &to_b));
    CUgraphExecUpdateResultInfo info;
    SGT_CHECK(cuGraphExecUpdate(x2, g, &info));
    SGT_EXPECT(info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS);
    launch(x2, s);
    SGT_EXPECT(all_zero(a, N) && has_pattern(b, N, 1) && runs == 7);
    /* ... another topology is refused. */
    CUgraph other;
    CUgraphNode empty;
    SGT_CHECK(cuGraphCreate(&other, 0));
    SGT_CHECK(cuGraphAddEmptyNode(&empty, other, NULL, 0));
    SGT_EXPECT(cuGraphExecUpdate(x2, other, &info) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
    SGT_EXPECT(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);

    /* A memset node, directly and in a child graph, set to another target. */
    memset(a, 0, N), memset(b, 0, N);
    CUgraph mg, child_a, child_b;
    CUgraphNode ms, inner, child;
    CUDA_MEMSET_NODE_PARAMS to_a = { .dst = (CUdeviceptr)(uintptr_t)a, .value = 7, .elementSize = 1,
                                     .width = N, .height = 1 };
    CUDA_MEMSET_NODE_PARAMS to_bm = to_a;
    to_bm.dst = (CUdeviceptr)(uintptr_t)b;
    SGT_CHECK(cuGraphCreate(&mg, 0));
    SGT_CHECK(cuGraphAddMemsetNode(&ms, mg, NULL, 0, &to_a, ctx));
    SGT_CHECK(cuGraphCreate(&child_a, 0));
    SGT_CHECK(cuGraphAddMemsetNode(&inner, child_a, NULL, 0, &to_a, ctx));
    SGT_CHECK(cuGraphCreate(&child_b, 0));
    SGT_CHECK(cuGraphAddMemsetNode(&inner, child_b, NULL, 0, &to_bm, ctx));
    SGT_CHECK(cuGraphAddChildGraphNode(&child, mg, &ms, 1, child_a));
    CUgraphExec mx;
    SGT_CHECK(cuGraphInstantiate(&mx, mg, 0));
    SGT_CHECK(cuGraphExecMemsetNodeSetParams(mx, ms, &to_bm, ctx));
    SGT_CHECK(cuGraphExecChildGraphNodeSetParams(mx, child, child_b));
    SGT_EXPECT(cuGraphExecChildGraphNodeSetParams(mx, child, other) == CUDA_ERROR_INVALID_VALUE);
    launch(mx, s);
    SGT_EXPECT(all_zero(a, N) && b[0] == 7 && b[N - 1] == 7);
    CUgraphNodeParams back_to_a = { .type = CU_GRAPH_NODE_TYPE_GRAPH };
    back_to_a.graph.graph = child_a;
    SGT_CHECK(cuGraphExecNodeSetParams(mx, child, &back_to_a));
    memset(b, 0, N);
    launch(mx, s);
    SGT_EXPECT(a[0] == 7 && b[0] == 7); /* the node still writes b, the child a again */

    /* An event record node set to another event records that one. */
    CUevent e1 = sgt_event(), e2 = sgt_event();
    CUgraph eg;
    CUgraphNode rec;
    SGT_CHECK(cuGraphCreate(&eg, 0));
    SGT_CHECK(cuGraphAddEventRecordNode(&rec, eg, NULL, 0, e1));
    CUgraphExec ex;
    SGT_CHECK(cuGraphInstantiate(&ex, eg, 0));
    SGT_CHECK(cuGraphExecEventRecordNodeSetEvent(ex, rec, e2));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(ex, s));
    SGT_EXPECT(cuEventQuery(e2) == CUDA_ERROR_NOT_READY && cuEventQuery(e1) == CUDA_SUCCESS);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(cuGraphExecEventWaitNodeSetEvent(ex, rec, e1) == CUDA_ERROR_INVALID_VALUE); /* not a wait node */

    /* IF nodes: the body runs when the value assigned at launch is non-zero. */
    for (unsigned value = 0; value < 2; value++) {
        CUgraph cg, body;
        CUgraphNode cond, inner;
        SGT_CHECK(cuGraphCreate(&cg, 0));
        CUgraphConditionalHandle h;
        SGT_CHECK(cuGraphConditionalHandleCreate(&h, cg, ctx, value, CU_GRAPH_COND_ASSIGN_DEFAULT));
        CUgraphNodeParams cp = { .type = CU_GRAPH_NODE_TYPE_CONDITIONAL };
        cp.conditional = (CUDA_CONDITIONAL_NODE_PARAMS){ h, CU_GRAPH_COND_TYPE_IF, 1, &body, ctx };
        SGT_CHECK(cuGraphAddNode(&cond, cg, NULL, NULL, 0, &cp));
        CUDA_MEMCPY3D p = dtoh(a, d);
        SGT_CHECK(cuGraphAddMemcpyNode(&inner, body, NULL, 0, &p, ctx));
        memset(a, 0, N);
        CUgraphExec cx;
        SGT_CHECK(cuGraphInstantiate(&cx, cg, 0));
        launch(cx, s);
        SGT_EXPECT(value ? has_pattern(a, N, 1) : all_zero(a, N));
        cp.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
        SGT_EXPECT(cuGraphAddNode(&cond, cg, NULL, NULL, 0, &cp) == CUDA_ERROR_NOT_SUPPORTED);
    }
    return pass("t-graph-update", "generic nodes, graph and executable updates, IF conditional nodes");
}
