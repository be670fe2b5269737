/* SPDX-License-Identifier: Apache-2.0 */
/* graph_update.c - the generic node API (cuGraphAddNode, both ABIs, and
 * cuGraphNodeSetParams), changing a node's parameters in a graph
 * (cuGraphHostNodeSetParams, cuGraphMemcpyNodeSetParams) or in an
 * executable graph (cuGraphExecHostNodeSetParams,
 * cuGraphExecMemcpyNodeSetParams, cuGraphExecMemsetNodeSetParams,
 * cuGraphExecEventRecordNodeSetEvent, cuGraphExecEventWaitNodeSetEvent,
 * cuGraphExecChildGraphNodeSetParams, cuGraphExecNodeSetParams for those,
 * cuGraphExecUpdate, both ABIs), and conditional nodes.
 *
 * A change to an executable graph affects the launches made after it:
 * launches already enqueued run clones of the old templates.
 *
 * Conditional nodes (cuGraphConditionalHandleCreate, cuGraphAddNode with
 * CU_GRAPH_NODE_TYPE_CONDITIONAL): only CU_GRAPH_COND_TYPE_IF with one body
 * (size 1).  The emulator runs no kernels, so nothing can set a condition
 * during a launch: its value is the handle's default when created with
 * CU_GRAPH_COND_ASSIGN_DEFAULT ("applied at the beginning of each graph
 * execution"), else 0.  A node's body is its child graph, expanded into a
 * launch when that value is non-zero; the node's template records the
 * handle and is never enqueued itself. */
#include "copy.h"

#include <stdlib.h>
#include <string.h>

/* ---- parameters of nodes in a graph ----------------------------------------- */

static CUresult host_template(const CUDA_HOST_NODE_PARAMS *p, emu_op **out)
{
    if (!p || !p->fn)
        return CUDA_ERROR_INVALID_VALUE;
    *out = emu_host_node_op(p->fn, p->userData);
    return CUDA_SUCCESS;
}

static CUresult memcpy_template(const CUDA_MEMCPY3D *p, emu_op **out)
{
    emu_copy c;
    CUresult r = emu_copy_from_3d(p, &c);
    return r == CUDA_SUCCESS ? emu_copy_node_op(&c, out) : r;
}

static CUresult set_node_template(CUgraphNode node, CUgraphNodeType type, CUresult made, emu_op *tmpl)
{
    CUresult r = emu_node_check_type(node, type);
    if (r == CUDA_SUCCESS)
        r = made;
    if (r != CUDA_SUCCESS) {
        if (made == CUDA_SUCCESS)
            emu_op_discard(tmpl);
        return r;
    }
    emu_op_discard(node->tmpl);
    node->tmpl = tmpl;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = host_template(nodeParams, &t);
    CUresult r = set_node_template(hNode, CU_GRAPH_NODE_TYPE_HOST, made, t);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D *nodeParams)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = memcpy_template(nodeParams, &t);
    CUresult r = set_node_template(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, made, t);
    emu_unlock();
    return r;
}

/* ---- conditional nodes ------------------------------------------------------ */

typedef struct cond_handle {
    CUgraph graph;
    unsigned int value;         /* what a launch starts with */
} cond_handle;

typedef struct cond_op {
    emu_op op;
    cond_handle *h;
} cond_op;

static const emu_op_class cond_class = { .node_type = CU_GRAPH_NODE_TYPE_CONDITIONAL };

CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out, CUgraph hGraph,
                                                CUcontext ctx, unsigned int defaultLaunchValue,
                                                unsigned int flags)
{
    if (!pHandle_out || (flags & ~CU_GRAPH_COND_ASSIGN_DEFAULT))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_graph_check(hGraph);
    if (r == CUDA_SUCCESS)
        r = emu_ctx_check(ctx);
    if (r == CUDA_SUCCESS) {
        cond_handle *h = emu_xcalloc(1, sizeof *h);     /* lives as long as the process */
        h->graph = hGraph;
        h->value = flags & CU_GRAPH_COND_ASSIGN_DEFAULT ? defaultLaunchValue : 0;
        *pHandle_out = (CUgraphConditionalHandle)(uintptr_t)h;
    }
    emu_unlock();
    return r;
}

bool emu_conditional_runs(CUgraphNode node)
{
    return node->tmpl && ((cond_op *)node->tmpl)->h->value != 0;
}

static CUresult add_conditional(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                CUDA_CONDITIONAL_NODE_PARAMS *p)
{
    cond_handle *h = (cond_handle *)(uintptr_t)p->handle;
    if (!h || !p->phGraph_out)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->type != CU_GRAPH_COND_TYPE_IF || p->size != 1)
        return CUDA_ERROR_NOT_SUPPORTED;
    emu_lock();
    CUresult r = emu_ctx_check(p->ctx);
    if (r == CUDA_SUCCESS && h->graph != g)
        r = CUDA_ERROR_INVALID_VALUE;       /* a handle belongs to the graph it was made for */
    if (r == CUDA_SUCCESS) {
        cond_op *op = emu_op_new(&cond_class, sizeof *op);
        op->h = h;
        CUgraph body = emu_graph_new(NULL);
        r = emu_graph_add(g, deps, ndeps, CU_GRAPH_NODE_TYPE_CONDITIONAL, &op->op, body, out);
        if (r == CUDA_SUCCESS)
            p->phGraph_out[0] = body;
    }
    emu_unlock();
    return r;
}

/* ---- the generic node API --------------------------------------------------- */

static CUresult add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges,
                         size_t ndeps, CUgraphNodeParams *p)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; edges && i < ndeps; i++)
        if (edges[i].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || edges[i].from_port || edges[i].to_port)
            return CUDA_ERROR_NOT_SUPPORTED;        /* programmatic edges need kernels */
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return cuGraphAddEmptyNode(out, g, deps, ndeps);
    case CU_GRAPH_NODE_TYPE_HOST:
        return cuGraphAddHostNode(out, g, deps, ndeps, &(CUDA_HOST_NODE_PARAMS){ p->host.fn, p->host.userData });
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        if (p->memcpy.flags || p->memcpy.reserved)
            return CUDA_ERROR_INVALID_VALUE;
        return cuGraphAddMemcpyNode(out, g, deps, ndeps, &p->memcpy.copyParams, p->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return cuGraphAddEventRecordNode(out, g, deps, ndeps, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return cuGraphAddEventWaitNode(out, g, deps, ndeps, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return cuGraphAddChildGraphNode(out, g, deps, ndeps, p->graph.graph);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return add_conditional(out, g, deps, ndeps, &p->conditional);
    default:
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

CUresult CUDAAPI cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                size_t numDependencies, CUgraphNodeParams *nodeParams)
{
    return add_node(phGraphNode, hGraph, dependencies, NULL, numDependencies, nodeParams);
}

CUresult CUDAAPI cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                   const CUgraphEdgeData *dependencyData, size_t numDependencies,
                                   CUgraphNodeParams *nodeParams)
{
    return add_node(phGraphNode, hGraph, dependencies, dependencyData, numDependencies, nodeParams);
}

CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    switch (nodeParams->type) {
    case CU_GRAPH_NODE_TYPE_HOST:
        return cuGraphHostNodeSetParams(hNode, &(CUDA_HOST_NODE_PARAMS){ nodeParams->host.fn,
                                                                         nodeParams->host.userData });
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return cuGraphMemcpyNodeSetParams(hNode, &nodeParams->memcpy.copyParams);
    default:
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

/* ---- executable graphs ------------------------------------------------------ */

static CUresult exec_set(CUgraphExec e, CUgraphNode node, CUgraphNodeType type, CUresult made, emu_op *tmpl)
{
    CUresult r = emu_node_check_type(node, type);
    if (r == CUDA_SUCCESS)
        r = made;
    if (r != CUDA_SUCCESS) {
        if (made == CUDA_SUCCESS)
            emu_op_discard(tmpl);
        return r;
    }
    return emu_exec_set_template(e, node, tmpl);
}

CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                              const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = host_template(nodeParams, &t);
    CUresult r = exec_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST, made, t);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                   const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = emu_kernel_node_op(nodeParams, &t);
    CUresult r = exec_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_KERNEL, made, t);
    emu_unlock();
    return r;
}

/* The CUDA 10 ABI: the same parameters without kern and ctx. */
CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS v2;
    memset(&v2, 0, sizeof v2);
    memcpy(&v2, nodeParams, sizeof *nodeParams); /* v2 begins with the v1 fields */
    return cuGraphExecKernelNodeSetParams_v2(hGraphExec, hNode, &v2);
}

CUresult CUDAAPI cuGraphExecBatchMemOpNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
    if (!nodeParams || !nodeParams->paramArray || nodeParams->count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (nodeParams->count != 1 || nodeParams->flags)
        return CUDA_ERROR_NOT_SUPPORTED;
    emu_lock();
    emu_op *t = NULL;
    CUresult made = emu_value_node_op(nodeParams->paramArray, &t);
    CUresult r = exec_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, made, t);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = ctx ? emu_ctx_check(ctx) : CUDA_SUCCESS;
    if (made == CUDA_SUCCESS)
        made = memcpy_template(copyParams, &t);
    CUresult r = exec_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY, made, t);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMSET_NODE_PARAMS *memsetParams, CUcontext ctx)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = ctx ? emu_ctx_check(ctx) : CUDA_SUCCESS;
    if (made == CUDA_SUCCESS)
        made = emu_memset_node_op(memsetParams, &t);
    CUresult r = exec_set(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET, made, t);
    emu_unlock();
    return r;
}

/* An event record or wait node of the executable graph records or waits
 * for another event from the next launch on. */
static CUresult exec_set_event(CUgraphExec e, CUgraphNode node, CUevent ev, bool record)
{
    emu_lock();
    emu_op *t = NULL;
    CUresult made = emu_event_node_op(ev, record, &t);
    CUresult r = exec_set(e, node, record ? CU_GRAPH_NODE_TYPE_EVENT_RECORD : CU_GRAPH_NODE_TYPE_WAIT_EVENT,
                          made, t);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    return exec_set_event(hGraphExec, hNode, event, true);
}

CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode, CUevent event)
{
    return exec_set_event(hGraphExec, hNode, event, false);
}

/* "as though the nodes contained in hNode's graph had the parameters
 * contained in childGraph's nodes at instantiation": childGraph must have
 * the topology of the node's graph. */
CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)
{
    emu_lock();
    CUresult r = emu_node_check_type(hNode, CU_GRAPH_NODE_TYPE_GRAPH);
    if (r == CUDA_SUCCESS)
        r = emu_graph_check(childGraph);
    if (r == CUDA_SUCCESS)
        r = emu_exec_set_child(hGraphExec, hNode, childGraph);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMSET_NODE_PARAMS_v2 *m = &nodeParams->memset;
    switch (nodeParams->type) {
    case CU_GRAPH_NODE_TYPE_HOST:
        return cuGraphExecHostNodeSetParams(hGraphExec, hNode,
                                            &(CUDA_HOST_NODE_PARAMS){ nodeParams->host.fn, nodeParams->host.userData });
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return cuGraphExecMemcpyNodeSetParams(hGraphExec, hNode, &nodeParams->memcpy.copyParams,
                                              nodeParams->memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return cuGraphExecMemsetNodeSetParams(hGraphExec, hNode,
                                              &(CUDA_MEMSET_NODE_PARAMS){ m->dst, m->pitch, m->value,
                                                                          m->elementSize, m->width, m->height },
                                              m->ctx);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode, nodeParams->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode, nodeParams->eventWait.event);
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return cuGraphExecChildGraphNodeSetParams(hGraphExec, hNode, nodeParams->graph.graph);
    default:
        return CUDA_ERROR_NOT_SUPPORTED;
    }
}

CUresult CUDAAPI cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)
{
    if (!resultInfo)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUgraphExecUpdateResult res;
    CUresult r = emu_exec_update(hGraphExec, hGraph, &res);
    resultInfo->result = res;
    resultInfo->errorNode = NULL;
    resultInfo->errorFromNode = NULL;
    emu_unlock();
    return r;
}

/* The CUDA 10.2 ABI. */
CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphNode *hErrorNode_out,
                                   CUgraphExecUpdateResult *updateResult_out)
{
    if (!hErrorNode_out || !updateResult_out)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_exec_update(hGraphExec, hGraph, updateResult_out);
    *hErrorNode_out = NULL;
    emu_unlock();
    return r;
}
