/* SPDX-License-Identifier: Apache-2.0 */
/* graph_node.c - the typed nodes a program adds to a graph itself: memcpy,
 * memset, host, event record and event wait nodes, and their parameters.
 * Each is a template operation of its family (copy.c, memset.c, hostfn.c,
 * event.c), the same kind of operation a stream capture records. */
#include "copy.h"

#include <string.h>

/* ctx: the context the node runs in; NULL means the current one. */
static CUresult node_ctx_check(CUcontext ctx)
{
    CUcontext cur;
    return ctx ? emu_ctx_check(ctx) : emu_ctx_current(&cur);
}

/* What the add call of a typed node gives: the node's type and its
 * parameters, and for the types that run in a context (memcpy, memset)
 * that context. */
typedef struct node_spec {
    CUgraphNodeType type;
    union {
        emu_copy *copy;                             /* CU_GRAPH_NODE_TYPE_MEMCPY */
        const CUDA_MEMSET_NODE_PARAMS *memset;      /* CU_GRAPH_NODE_TYPE_MEMSET */
        const CUDA_HOST_NODE_PARAMS *host;          /* CU_GRAPH_NODE_TYPE_HOST */
        CUevent event;                              /* EVENT_RECORD, WAIT_EVENT */
        const CUDA_KERNEL_NODE_PARAMS *kernel;      /* CU_GRAPH_NODE_TYPE_KERNEL */
        const CUstreamBatchMemOpParams *memop;      /* CU_GRAPH_NODE_TYPE_BATCH_MEM_OP */
    };
    bool in_ctx;
    CUcontext ctx;
} node_spec;

/* Builds the node's template, the operation each launch enqueues (lock
 * held). */
static CUresult node_template(const node_spec *spec, emu_op **out)
{
    switch (spec->type) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return emu_copy_node_op(spec->copy, out);
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return emu_memset_node_op(spec->memset, out);
    case CU_GRAPH_NODE_TYPE_HOST:
        *out = emu_host_node_op(spec->host->fn, spec->host->userData);
        return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return emu_kernel_node_op(spec->kernel, out);
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return emu_value_node_op(spec->memop, out);
    default:
        return emu_event_node_op(spec->event, spec->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD, out);
    }
}

/* The add calls of every typed node: the graph must be usable, then the
 * node's context, then its parameters. */
static CUresult add_typed(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, const node_spec *spec)
{
    emu_lock();
    emu_op *tmpl = NULL;
    CUresult r = emu_graph_check(g);
    if (r == CUDA_SUCCESS && spec->in_ctx)
        r = node_ctx_check(spec->ctx);
    if (r == CUDA_SUCCESS)
        r = node_template(spec, &tmpl);
    if (r == CUDA_SUCCESS)
        r = emu_graph_add(g, deps, ndeps, spec->type, tmpl, NULL, out);
    emu_unlock();
    return r;
}

/* The getters of every typed node: the node must be of the type asked
 * for; its template's family reads the parameters back into *out. */
static CUresult node_params(CUgraphNode node, CUgraphNodeType type, void *out)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_node_check_type(node, type);
    if (r == CUDA_SUCCESS) {
        switch (type) {
        case CU_GRAPH_NODE_TYPE_MEMCPY: emu_copy_op_params(node->tmpl, out); break;
        case CU_GRAPH_NODE_TYPE_MEMSET: emu_memset_op_params(node->tmpl, out); break;
        case CU_GRAPH_NODE_TYPE_HOST:   emu_host_op_params(node->tmpl, out); break;
        case CU_GRAPH_NODE_TYPE_KERNEL: emu_kernel_op_params(node->tmpl, out); break;
        case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: emu_value_op_params(node->tmpl, out); break;
        default:                        *(CUevent *)out = emu_event_op_event(node->tmpl); break;
        }
    }
    emu_unlock();
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
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_MEMCPY, .copy = &c, .in_ctx = true, .ctx = ctx };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D *nodeParams)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams);
}

/* ---- kernels --------------------------------------------------------------- */

/* The parameters of the CUDA 10 ABI (no kern, no ctx) as the current ones. */
static CUDA_KERNEL_NODE_PARAMS kernel_params_v2(const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
    CUDA_KERNEL_NODE_PARAMS v2;
    memset(&v2, 0, sizeof v2);
    memcpy(&v2, p, sizeof *p); /* v2 begins with the v1 fields, in order */
    return v2;
}

CUresult CUDAAPI cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_KERNEL, .kernel = nodeParams, .in_ctx = true,
                       .ctx = nodeParams && !nodeParams->func ? nodeParams->ctx : NULL };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    if (!nodeParams)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_KERNEL_NODE_PARAMS v2 = kernel_params_v2(nodeParams);
    return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &v2);
}

CUresult CUDAAPI cuGraphKernelNodeGetParams_v2(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams);
}

CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode, CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    CUDA_KERNEL_NODE_PARAMS v2;
    CUresult r = nodeParams ? cuGraphKernelNodeGetParams_v2(hNode, &v2) : CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        memcpy(nodeParams, &v2, sizeof *nodeParams);
    return r;
}

/* ---- memory operations ----------------------------------------------------- */

/* One operation per node here (tests/README.md: not implemented). */
CUresult CUDAAPI cuGraphAddBatchMemOpNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, const CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams)
{
    if (!nodeParams || !nodeParams->paramArray || nodeParams->count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (nodeParams->count != 1 || nodeParams->flags)
        return CUDA_ERROR_NOT_SUPPORTED;
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, .memop = nodeParams->paramArray,
                       .in_ctx = true, .ctx = nodeParams->ctx };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphBatchMemOpNodeGetParams(CUgraphNode hNode, CUDA_BATCH_MEM_OP_NODE_PARAMS *nodeParams_out)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP, nodeParams_out);
}

/* ---- memset ---------------------------------------------------------------- */

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                      CUcontext ctx)
{
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_MEMSET, .memset = memsetParams, .in_ctx = true, .ctx = ctx };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode, CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams);
}

/* ---- host functions -------------------------------------------------------- */

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    if (!nodeParams || !nodeParams->fn)
        return CUDA_ERROR_INVALID_VALUE;
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_HOST, .host = nodeParams };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS *nodeParams)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams);
}

/* ---- events ---------------------------------------------------------------- */

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                           const CUgraphNode *dependencies, size_t numDependencies, CUevent event)
{
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_EVENT_RECORD, .event = event };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event_out);
}

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                         size_t numDependencies, CUevent event)
{
    node_spec spec = { .type = CU_GRAPH_NODE_TYPE_WAIT_EVENT, .event = event };
    return add_typed(phGraphNode, hGraph, dependencies, numDependencies, &spec);
}

CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
    return node_params(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out);
}
