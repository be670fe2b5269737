/* graph_node.c - the typed nodes a program adds to a graph itself: memcpy,
 * memset, host, event record and event wait nodes, and their parameters.
 * Each is a template operation of its family (copy.c, memset.c, hostfn.c,
 * event.c), the same kind of operation a stream capture records. */
#include "copy.h"

/* ctx: the context the node runs in; NULL means the current one. */
static CUresult node_ctx_check(CUcontext ctx)
{
    CUcontext cur;
    return ctx ? emu_ctx_check(ctx) : emu_ctx_current(&cur);
}

/* Adds a node made from a template once the graph is known to be usable. */
static CUresult add_typed(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, emu_op *tmpl)
{
    return emu_graph_add(g, deps, ndeps, tmpl->cls->node_type, tmpl, NULL, out);
}

/* The node of a given type whose template the getters read (lock held). */
static CUresult typed_node(CUgraphNode node, CUgraphNodeType type)
{
    CUresult r = emu_node_check(node);
    if (r == CUDA_SUCCESS && node->type != type)
        r = CUDA_ERROR_INVALID_VALUE;
    return r;
}

/* ---- memcpy ---------------------------------------------------------------- */

/* Operands must be device or page-locked host memory: a graph cannot stage
 * pageable memory at every launch. */
CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    emu_copy c;
    CUresult r = emu_copy_from_3d(copyParams, &c);
    if (r != CUDA_SUCCESS)
        return r;
    emu_lock();
    emu_op *tmpl = NULL;
    r = emu_graph_check(hGraph);
    if (r == CUDA_SUCCESS)
        r = node_ctx_check(ctx);
    if (r == CUDA_SUCCESS)
        r = emu_copy_node_op(&c, &tmpl);
    if (r == CUDA_SUCCESS)
        r = add_typed(phGraphNode, hGraph, dependencies, numDependencies, tmpl);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = typed_node(hNode, CU_GRAPH_NODE_TYPE_MEMCPY);
    if (r == CUDA_SUCCESS)
        emu_copy_op_params(hNode->tmpl, nodeParams);
    emu_unlock();
    return r;
}

/* ---- memset ---------------------------------------------------------------- */

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                      CUcontext ctx)
{
    emu_lock();
    emu_op *tmpl = NULL;
    CUresult r = emu_graph_check(hGraph);
    if (r == CUDA_SUCCESS)
        r = node_ctx_check(ctx);
    if (r == CUDA_SUCCESS)
        r = emu_memset_node_op(memsetParams, &tmpl);
    if (r == CUDA_SUCCESS)
        r = add_typed(phGraphNode, hGraph, dependencies, numDependencies, tmpl);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = typed_node(hNode, CU_GRAPH_NODE_TYPE_MEMSET);
    if (r == CUDA_SUCCESS)
        emu_memset_op_params(hNode->tmpl, nodeParams);
    emu_unlock();
    return r;
}

/* ---- host functions -------------------------------------------------------- */

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams || !nodeParams->fn)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_graph_check(hGraph);
    if (r == CUDA_SUCCESS)
        r = add_typed(phGraphNode, hGraph, dependencies, numDependencies,
                      emu_host_node_op(nodeParams->fn, nodeParams->userData));
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = typed_node(hNode, CU_GRAPH_NODE_TYPE_HOST);
    if (r == CUDA_SUCCESS)
        emu_host_op_params(hNode->tmpl, nodeParams);
    emu_unlock();
    return r;
}

/* ---- events ---------------------------------------------------------------- */

static CUresult add_event_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUevent ev,
                               bool record)
{
    emu_lock();
    emu_op *tmpl = NULL;
    CUresult r = emu_graph_check(g);
    if (r == CUDA_SUCCESS)
        r = emu_event_node_op(ev, record, &tmpl);
    if (r == CUDA_SUCCESS)
        r = add_typed(out, g, deps, ndeps, tmpl);
    emu_unlock();
    return r;
}

static CUresult node_event(CUgraphNode node, CUgraphNodeType type, CUevent *out)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = typed_node(node, type);
    if (r == CUDA_SUCCESS)
        *out = emu_event_op_event(node->tmpl);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                           const CUgraphNode *dependencies, size_t numDependencies, CUevent event)
{
    return add_event_node(phGraphNode, hGraph, dependencies, numDependencies, event, true);
}

CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return node_event(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event_out);
}

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUevent event)
{
    return add_event_node(phGraphNode, hGraph, dependencies, numDependencies, event, false);
}

CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return node_event(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out);
}
