/* SPDX-License-Identifier: Apache-2.0 */
/* graph_exec.c - executable graphs: instantiation and launch.
 *
 * Instantiation keeps a private copy of the graph (later changes to the
 * graph do not affect it) and the list of its template operations in node
 * order, child graphs expanded in place: a topological order.  A launch is
 * one piece of work in stream order on the launch stream: a marker, then a
 * clone of every template, enqueued back to back under the lock, so the
 * nodes run one after the other, each after its dependencies, and work
 * enqueued on the stream afterwards (an event record, a synchronisation)
 * comes after all of them.  "Each launch is ordered behind both any
 * previous work in hStream and any previous launches of hGraphExec": the
 * marker depends on the end of the previous launch, whatever its stream.
 *
 * cuGraphLaunch on a capturing stream records the graph as a child-graph
 * node.  CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD does nothing (there is nothing
 * to upload).  Updates (graph_update.c) change the private copy through
 * emu_exec_set_template, emu_exec_set_child and emu_exec_update; the next launch runs the new
 * templates, launches already enqueued keep their clones.
 */
#include "emu.h"

#include <stdlib.h>

struct CUgraphExec_st {
    CUgraph graph;              /* private copy */
    emu_op **ops;               /* its templates, in launch order */
    size_t n, cap;
    CUstream last;              /* the previous launch's last operation */
    uint64_t last_seq;
};

static CUgraphExec *live;
static size_t nlive, live_cap;

static CUresult exec_check(CUgraphExec e)
{
    CUresult r = emu_check_init();
    if (r != CUDA_SUCCESS)
        return r;
    for (size_t i = 0; i < nlive; i++)
        if (live[i] == e)
            return CUDA_SUCCESS;
    return CUDA_ERROR_INVALID_VALUE;
}

/* ---- instantiation ------------------------------------------------------- */

static void flatten(CUgraphExec e, CUgraph g)
{
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode node = g->nodes[i];
        if (node->child) {
            if (node->type != CU_GRAPH_NODE_TYPE_CONDITIONAL || emu_conditional_runs(node))
                flatten(e, node->child);
        } else if (node->tmpl) {
            e->ops = emu_grow(e->ops, e->n, &e->cap, sizeof *e->ops);
            e->ops[e->n++] = node->tmpl;
        }
    }
}

static CUresult instantiate(CUgraphExec *pe, CUgraph g, unsigned long long flags, unsigned long long allowed)
{
    if (!pe || (flags & ~allowed))
        return CUDA_ERROR_INVALID_VALUE;
    if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) && (flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_graph_check(g);
    if (r == CUDA_SUCCESS)
        r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS && g->capturing)
        r = CUDA_ERROR_INVALID_VALUE;           /* not instantiable until the capture ends */
    if (r == CUDA_SUCCESS) {
        CUgraphExec e = emu_xcalloc(1, sizeof *e);
        e->graph = emu_graph_clone(g, NULL);
        flatten(e, e->graph);
        live = emu_grow(live, nlive, &live_cap, sizeof *live);
        live[nlive++] = e;
        *pe = e;
    }
    emu_unlock();
    return r;
}

#define HOST_LAUNCH_FLAGS \
    (CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | \
     CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags)
{
    return instantiate(phGraphExec, hGraph, flags, HOST_LAUNCH_FLAGS);
}

/* The CUDA 10.0 and 11.0 ABIs: an error node and a log instead of flags. */
static CUresult instantiate_with_log(CUgraphExec *pe, CUgraph g, CUgraphNode *err_node, char *log, size_t n)
{
    if (err_node)
        *err_node = NULL;
    if (log && n)
        log[0] = '\0';
    return instantiate(pe, g, 0, 0);
}

CUresult CUDAAPI cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                    char *logBuffer, size_t bufferSize)
{
    return instantiate_with_log(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                       char *logBuffer, size_t bufferSize)
{
    return instantiate_with_log(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

static CUresult instantiate_with_params(CUgraphExec *pe, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p,
                                        emu_null_stream null_means)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    if (p->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) {
        emu_lock();
        CUstream s;
        r = emu_stream_get(p->hUploadStream, null_means, &s);
        emu_unlock();
    }
    if (r == CUDA_SUCCESS)
        r = instantiate(pe, g, p->flags, HOST_LAUNCH_FLAGS | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD);
    p->hErrNode_out = NULL;
    p->result_out = r == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS : CUDA_GRAPH_INSTANTIATE_ERROR;
    return r;
}

EMU_NULL_STREAM_ABIS(cuGraphInstantiateWithParams, cuGraphInstantiateWithParams_ptsz,
                     (CUgraphExec *phGraphExec, CUgraph hGraph,
                      CUDA_GRAPH_INSTANTIATE_PARAMS *instantiateParams),
                     instantiate_with_params, phGraphExec, hGraph, instantiateParams)

/* Pending launches run on: they are clones. */
CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec)
{
    emu_lock();
    CUresult r = exec_check(hGraphExec);
    if (r == CUDA_SUCCESS) {
        for (size_t i = 0; i < nlive; i++) {
            if (live[i] == hGraphExec) {
                live[i] = live[--nlive];
                break;
            }
        }
        if (hGraphExec->last)
            emu_stream_unref(hGraphExec->last);
        emu_graph_free(hGraphExec->graph);
        free(hGraphExec->ops);
        free(hGraphExec);
    }
    emu_unlock();
    return r;
}

/* ---- updates (graph_update.c) ---------------------------------------------- */

static void reflatten(CUgraphExec e)
{
    e->n = 0;
    flatten(e, e->graph);
}

/* The node of e's copy that stands for `node` of the graph e was made
 * from: the same place among the top-level nodes (lock held). */
static CUgraphNode exec_node(CUgraphExec e, CUgraphNode node)
{
    CUgraph g = node->graph;
    if (g->parent || g->n != e->graph->n)
        return NULL;
    for (size_t i = 0; i < g->n; i++)
        if (g->nodes[i] == node)
            return e->graph->nodes[i]->type == node->type ? e->graph->nodes[i] : NULL;
    return NULL;
}

CUresult emu_exec_set_template(CUgraphExec e, CUgraphNode node, emu_op *tmpl)
{
    CUresult r = exec_check(e);
    CUgraphNode mine = r == CUDA_SUCCESS ? exec_node(e, node) : NULL;
    if (r == CUDA_SUCCESS && (!mine || !mine->tmpl))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS) {
        emu_op_discard(tmpl);
        return r;
    }
    emu_op_discard(mine->tmpl);
    mine->tmpl = tmpl;
    reflatten(e);
    return CUDA_SUCCESS;
}

/* Same nodes in the same order, of the same types and dependencies: what
 * "the topology of hGraph must be identical" comes to here. */
static bool same_topology(CUgraph a, CUgraph b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        CUgraphNode x = a->nodes[i], y = b->nodes[i];
        if (x->type != y->type || x->deps.n != y->deps.n || !x->child != !y->child ||
            (x->child && !same_topology(x->child, y->child)))
            return false;
    }
    return true;
}

CUresult emu_exec_set_child(CUgraphExec e, CUgraphNode node, CUgraph g)
{
    CUresult r = exec_check(e);
    CUgraphNode mine = r == CUDA_SUCCESS ? exec_node(e, node) : NULL;
    if (r == CUDA_SUCCESS && (!mine || !mine->child))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && !same_topology(mine->child, g))
        r = CUDA_ERROR_INVALID_VALUE;       /* "must match that of the graph contained in hNode" */
    if (r != CUDA_SUCCESS)
        return r;
    emu_graph_free(mine->child);
    mine->child = emu_graph_clone(g, mine);
    reflatten(e);
    return CUDA_SUCCESS;
}

CUresult emu_exec_update(CUgraphExec e, CUgraph g, CUgraphExecUpdateResult *result)
{
    CUresult r = exec_check(e);
    if (r == CUDA_SUCCESS)
        r = emu_graph_check(g);
    *result = CU_GRAPH_EXEC_UPDATE_ERROR;
    if (r != CUDA_SUCCESS)
        return r;
    if (!same_topology(e->graph, g)) {
        *result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    emu_graph_free(e->graph);
    e->graph = emu_graph_clone(g, NULL);
    reflatten(e);
    *result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
    return CUDA_SUCCESS;
}

/* ---- launch -------------------------------------------------------------- */

/* The start of a launch: waits for the previous launch of the same graph. */
static const emu_op_class launch_class = { .node_type = CU_GRAPH_NODE_TYPE_EMPTY };

static void launch_now(CUgraphExec e, CUstream s)
{
    emu_op *start = emu_op_new(&launch_class, sizeof *start);
    if (e->last)
        emu_deps_add(&start->deps, e->last, e->last_seq);
    uint64_t seq = emu_enqueue(s, start);
    for (size_t i = 0; i < e->n; i++)
        seq = emu_enqueue(s, emu_op_clone(e->ops[i]));
    emu_stream_ref(s);
    if (e->last)
        emu_stream_unref(e->last);
    e->last = s;
    e->last_seq = seq;
}

static CUresult graph_launch(CUgraphExec e, CUstream hs, emu_null_stream null_means)
{
    emu_lock();
    CUstream s;
    CUresult r = exec_check(e);
    if (r == CUDA_SUCCESS)
        r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS)
        r = emu_capture_check_enqueue(s);
    if (r == CUDA_SUCCESS && emu_capturing(s))
        r = emu_capture_add(s, CU_GRAPH_NODE_TYPE_GRAPH, NULL, emu_graph_clone(e->graph, NULL));
    else if (r == CUDA_SUCCESS)
        launch_now(e, s);
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuGraphLaunch, cuGraphLaunch_ptsz,
                     (CUgraphExec hGraphExec, CUstream hStream),
                     graph_launch, hGraphExec, hStream)
