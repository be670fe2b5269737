/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of graphs: host nodes however they are made get a trampoline that
 * observes what the node depends on; conditional nodes' bodies and handles
 * are remembered; instantiation, updates and launches hand the graph to
 * the graph files of work/ (work/graph.h). */
#include "config.h"

#include "work/graph.h"
#include "preload/shim.h"

/* cuda.h maps these names to newer ABIs; the ABIs wrapped here carry the
 * names themselves. */
#undef cuGraphInstantiate
#undef cuGraphAddNode
#undef cuGraphExecUpdate
#undef cuGraphExecKernelNodeSetParams

SG_CUDA_SHIM(cuGraphAddHostNode, (CUgraphNode *pn, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                 const CUDA_HOST_NODE_PARAMS *p))
{
    CUDA_HOST_NODE_PARAMS mine;
    return SG_FORWARD(cuGraphAddHostNode, pn, g, deps, ndeps,
                      SG_ENTER() ? sg_graph_wrapped_host_params(p, &mine) : p);
}

SG_CUDA_SHIM(cuGraphHostNodeSetParams, (CUgraphNode node, const CUDA_HOST_NODE_PARAMS *p))
{
    CUDA_HOST_NODE_PARAMS mine;
    return SG_FORWARD(cuGraphHostNodeSetParams, node, SG_ENTER() ? sg_graph_wrapped_host_params(p, &mine) : p);
}

SG_CUDA_SHIM(cuGraphNodeSetParams, (CUgraphNode node, CUgraphNodeParams *p))
{
    CUgraphNodeParams mine;
    return SG_FORWARD(cuGraphNodeSetParams, node, SG_ENTER() ? sg_graph_wrapped_node_params(p, &mine) : p);
}

SG_CUDA_SHIM(cuGraphAddNode, (CUgraphNode *pn, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                             CUgraphNodeParams *p))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuGraphAddNode, pn, g, deps, ndeps, p);
    CUgraphNodeParams mine;
    CUresult r = SG_FORWARD(cuGraphAddNode, pn, g, deps, ndeps, sg_graph_wrapped_node_params(p, &mine));
    if (r == CUDA_SUCCESS && pn)
        sg_graph_node_added(*pn, p);
    return r;
}

SG_CUDA_SHIM(cuGraphAddNode_v2, (CUgraphNode *pn, CUgraph g, const CUgraphNode *deps,
                                const CUgraphEdgeData *edges, size_t ndeps, CUgraphNodeParams *p))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuGraphAddNode_v2, pn, g, deps, edges, ndeps, p);
    CUgraphNodeParams mine;
    CUresult r = SG_FORWARD(cuGraphAddNode_v2, pn, g, deps, edges, ndeps, sg_graph_wrapped_node_params(p, &mine));
    if (r == CUDA_SUCCESS && pn)
        sg_graph_node_added(*pn, p);
    return r;
}

SG_CUDA_SHIM(cuGraphConditionalHandleCreate, (CUgraphConditionalHandle *h, CUgraph g, CUcontext ctx,
                                             unsigned int value, unsigned int flags))
{
    CUresult r = SG_FORWARD(cuGraphConditionalHandleCreate, h, g, ctx, value, flags);
    if (r == CUDA_SUCCESS && h && SG_ENTER())
        sg_graph_conditional_handle(*h, value, flags);
    return r;
}

SG_CUDA_SHIM(cuGraphInstantiateWithFlags, (CUgraphExec *pe, CUgraph graph, unsigned long long flags))
{
    CUresult r = SG_FORWARD(cuGraphInstantiateWithFlags, pe, graph, flags);
    if (r == CUDA_SUCCESS && SG_ENTER())
        sg_graph_instantiated(*pe, graph);
    return r;
}

/* The CUDA 10 and 11.0-11.3 ABI: an error node and a log buffer. */
#define INSTANTIATE_WITH_LOG(symbol)                                                   \
    SG_CUDA_SHIM(symbol, (CUgraphExec * pe, CUgraph graph, CUgraphNode * err, char *log, \
                         size_t loglen))                                                \
    {                                                                                  \
        CUresult r = SG_FORWARD(symbol, pe, graph, err, log, loglen);                  \
        if (r == CUDA_SUCCESS && SG_ENTER())                                           \
            sg_graph_instantiated(*pe, graph);                                         \
        return r;                                                                      \
    }

INSTANTIATE_WITH_LOG(cuGraphInstantiate)
INSTANTIATE_WITH_LOG(cuGraphInstantiate_v2)

#define INSTANTIATE_WITH_PARAMS(symbol)                                                     \
    SG_CUDA_SHIM(symbol, (CUgraphExec *pe, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS *ip)) \
    {                                                                                       \
        CUresult r = SG_FORWARD(symbol, pe, graph, ip);                                     \
        if (r == CUDA_SUCCESS && SG_ENTER())                                                \
            sg_graph_instantiated(*pe, graph);                                              \
        return r;                                                                           \
    }

INSTANTIATE_WITH_PARAMS(cuGraphInstantiateWithParams)
INSTANTIATE_WITH_PARAMS(cuGraphInstantiateWithParams_ptsz)

SG_CUDA_SHIM(cuGraphExecDestroy, (CUgraphExec exec))
{
    if (SG_ENTER())
        sg_graph_forget(exec);
    return SG_FORWARD(cuGraphExecDestroy, exec);
}

/* Updates of an executable graph: the next launch copies and calls what
 * the update says, not what the graph said at instantiation. */
SG_CUDA_SHIM(cuGraphExecMemcpyNodeSetParams, (CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D *p,
                                             CUcontext ctx))
{
    CUresult r = SG_FORWARD(cuGraphExecMemcpyNodeSetParams, exec, node, p, ctx);
    if (r == CUDA_SUCCESS && p && SG_ENTER())
        sg_graph_exec_copy_set(exec, node, p);
    return r;
}

/* An update of one node of an executable graph, handed to work/graph_update.c
 * once the driver took it. */
#define GRAPH_EXEC_SET(symbol, params_type, update)                              \
    SG_CUDA_SHIM(symbol, (CUgraphExec exec, CUgraphNode node, const params_type *p)) \
    {                                                                            \
        CUresult r = SG_FORWARD(symbol, exec, node, p);                          \
        if (r == CUDA_SUCCESS && p && SG_ENTER())                                \
            update(exec, node, p);                                               \
        return r;                                                                \
    }

GRAPH_EXEC_SET(cuGraphExecKernelNodeSetParams_v2, CUDA_KERNEL_NODE_PARAMS, sg_graph_exec_kernel_set)
GRAPH_EXEC_SET(cuGraphExecBatchMemOpNodeSetParams, CUDA_BATCH_MEM_OP_NODE_PARAMS, sg_graph_exec_memop_set)

SG_CUDA_SHIM(cuGraphExecMemsetNodeSetParams, (CUgraphExec exec, CUgraphNode node,
                                             const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx))
{
    CUresult r = SG_FORWARD(cuGraphExecMemsetNodeSetParams, exec, node, p, ctx);
    if (r == CUDA_SUCCESS && p && SG_ENTER())
        sg_graph_exec_memset_set(exec, node, p);
    return r;
}

/* An event record or wait node given another event: launches from now on
 * record (or wait for) that one, not the one the graph was made with. */
#define GRAPH_EXEC_SET_EVENT(symbol, record)                                     \
    SG_CUDA_SHIM(symbol, (CUgraphExec exec, CUgraphNode node, CUevent e))         \
    {                                                                            \
        CUresult r = SG_FORWARD(symbol, exec, node, e);                          \
        if (r == CUDA_SUCCESS && SG_ENTER())                                     \
            sg_graph_exec_event_set(exec, node, e, record);                      \
        return r;                                                                \
    }

GRAPH_EXEC_SET_EVENT(cuGraphExecEventRecordNodeSetEvent, 1)
GRAPH_EXEC_SET_EVENT(cuGraphExecEventWaitNodeSetEvent, 0)

SG_CUDA_SHIM(cuGraphExecChildGraphNodeSetParams, (CUgraphExec exec, CUgraphNode node, CUgraph child))
{
    CUresult r = SG_FORWARD(cuGraphExecChildGraphNodeSetParams, exec, node, child);
    if (r == CUDA_SUCCESS && SG_ENTER())
        sg_graph_exec_child_set(exec, node, child);
    return r;
}

/* The CUDA 10.1 ABI: the parameters without kern and ctx. */
SG_CUDA_SHIM(cuGraphExecKernelNodeSetParams, (CUgraphExec exec, CUgraphNode node,
                                             const CUDA_KERNEL_NODE_PARAMS_v1 *p))
{
    CUresult r = SG_FORWARD(cuGraphExecKernelNodeSetParams, exec, node, p);
    if (r == CUDA_SUCCESS && p && SG_ENTER()) {
        CUDA_KERNEL_NODE_PARAMS v2 = { .func = p->func, .kernelParams = p->kernelParams,
                                       .extra = p->extra };
        sg_graph_exec_kernel_set(exec, node, &v2);
    }
    return r;
}

SG_CUDA_SHIM(cuGraphExecHostNodeSetParams, (CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS *p))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuGraphExecHostNodeSetParams, exec, node, p);
    CUDA_HOST_NODE_PARAMS mine;
    const CUDA_HOST_NODE_PARAMS *q = sg_graph_wrapped_host_params(p, &mine);
    CUresult r = SG_FORWARD(cuGraphExecHostNodeSetParams, exec, node, q);
    if (r == CUDA_SUCCESS && q)
        sg_graph_exec_host_set(exec, node, q);
    return r;
}

/* The generic update, node type by node type, as the typed calls above. */
static void exec_node_set(CUgraphExec exec, CUgraphNode node, const CUgraphNodeParams *q)
{
    const CUDA_BATCH_MEM_OP_NODE_PARAMS_v2 *b = &q->memOp;
    const CUDA_KERNEL_NODE_PARAMS_v3 *k = &q->kernel; /* the v2 fields, in order */
    const CUDA_MEMSET_NODE_PARAMS_v2 *m = &q->memset;
    switch (q->type) {
    case CU_GRAPH_NODE_TYPE_HOST:
        sg_graph_exec_host_set(exec, node, (const CUDA_HOST_NODE_PARAMS *)&q->host);
        break;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        sg_graph_exec_copy_set(exec, node, &q->memcpy.copyParams);
        break;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        sg_graph_exec_memop_set(exec, node, &(CUDA_BATCH_MEM_OP_NODE_PARAMS){ b->ctx, b->count, b->paramArray,
                                                                            b->flags });
        break;
    case CU_GRAPH_NODE_TYPE_KERNEL:
        sg_graph_exec_kernel_set(exec, node, &(CUDA_KERNEL_NODE_PARAMS){ .func = k->func,
                                                                       .kernelParams = k->kernelParams,
                                                                       .extra = k->extra, .kern = k->kern,
                                                                       .ctx = k->ctx });
        break;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        sg_graph_exec_memset_set(exec, node, &(CUDA_MEMSET_NODE_PARAMS){ m->dst, m->pitch, m->value,
                                                                       m->elementSize, m->width, m->height });
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        sg_graph_exec_event_set(exec, node, q->eventRecord.event, 1);
        break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        sg_graph_exec_event_set(exec, node, q->eventWait.event, 0);
        break;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        sg_graph_exec_child_set(exec, node, q->graph.graph);
        break;
    default:
        break; /* nothing syncguard reads off a graph */
    }
}

SG_CUDA_SHIM(cuGraphExecNodeSetParams, (CUgraphExec exec, CUgraphNode node, CUgraphNodeParams *p))
{
    if (!SG_ENTER())
        return SG_FORWARD(cuGraphExecNodeSetParams, exec, node, p);
    CUgraphNodeParams mine, *q = sg_graph_wrapped_node_params(p, &mine);
    CUresult r = SG_FORWARD(cuGraphExecNodeSetParams, exec, node, q);
    if (r == CUDA_SUCCESS && q)
        exec_node_set(exec, node, q);
    return r;
}

SG_CUDA_SHIM(cuGraphExecUpdate_v2, (CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo *info))
{
    CUresult r = SG_FORWARD(cuGraphExecUpdate_v2, exec, graph, info);
    if (r == CUDA_SUCCESS && SG_ENTER())
        sg_graph_updated(exec, graph);
    return r;
}

/* The CUDA 10.2 ABI. */
SG_CUDA_SHIM(cuGraphExecUpdate, (CUgraphExec exec, CUgraph graph, CUgraphNode *err,
                                CUgraphExecUpdateResult *result))
{
    CUresult r = SG_FORWARD(cuGraphExecUpdate, exec, graph, err, result);
    if (r == CUDA_SUCCESS && SG_ENTER())
        sg_graph_updated(exec, graph);
    return r;
}

#define GRAPH_LAUNCH(symbol, per_thread)                          \
    SG_CUDA_SHIM(symbol, (CUgraphExec exec, CUstream s))            \
    {                                                             \
        SG_IN_ORDER();                                            \
        CUresult r = SG_FORWARD(symbol, exec, s);                 \
        if (r != CUDA_SUCCESS || !SG_ENTER())                     \
            return r;                                             \
        sg_graph_launched(exec, s, per_thread);                   \
        return r;                                                 \
    }

GRAPH_LAUNCH(cuGraphLaunch, 0)
GRAPH_LAUNCH(cuGraphLaunch_ptsz, 1)
