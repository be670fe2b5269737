/* SPDX-License-Identifier: Apache-2.0 */
/* graph.c - graphs and their nodes: creation, destruction, cloning, the
 * node sets shared with stream capture, and the structural queries.
 *
 * A node does its work through a template operation of the family that
 * makes it (a copy, a memset, a host function, an event record or wait, a
 * memory operation): instantiation keeps a copy of the graph and a launch
 * enqueues a clone of every template (graph_exec.c).  Child-graph nodes own
 * their embedded graph, which is cloned when the node is added, as the
 * driver does.  Nodes can only depend on nodes that exist already (there
 * is no cuGraphAddDependencies here), so the order in which nodes were
 * added is a topological order.
 */
#include "emu.h"

#include <stdlib.h>

/* Every graph whose handle can be used: made by cuGraphCreate, a capture,
 * cuGraphClone, or embedded in a child-graph node. */
static CUgraph *live;
static size_t nlive, live_cap;

/* ---- node sets ----------------------------------------------------------- */

void emu_nodes_add(emu_nodes *s, CUgraphNode node)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == node)
            return;
    s->v = emu_grow(s->v, s->n, &s->cap, sizeof *s->v);
    s->v[s->n++] = node;
}

void emu_nodes_copy(emu_nodes *dst, const emu_nodes *src)
{
    dst->n = 0;
    for (size_t i = 0; i < src->n; i++)
        emu_nodes_add(dst, src->v[i]);
}

void emu_nodes_clear(emu_nodes *s)
{
    free(s->v);
    *s = (emu_nodes){ 0 };
}

static bool reach(CUgraphNode from, CUgraphNode node)
{
    if (from == node)
        return true;
    for (size_t i = 0; i < from->deps.n; i++)
        if (reach(from->deps.v[i], node))
            return true;
    return false;
}

bool emu_nodes_reach(const emu_nodes *set, CUgraphNode node)
{
    for (size_t i = 0; i < set->n; i++)
        if (reach(set->v[i], node))
            return true;
    return false;
}

/* ---- graphs -------------------------------------------------------------- */

CUgraph emu_graph_new(CUgraphNode parent)
{
    CUgraph g = emu_xcalloc(1, sizeof *g);
    g->parent = parent;
    live = emu_grow(live, nlive, &live_cap, sizeof *live);
    live[nlive++] = g;
    return g;
}

static void node_free(CUgraphNode node)
{
    if (node->tmpl)
        emu_op_discard(node->tmpl);
    if (node->child)
        emu_graph_free(node->child);
    emu_nodes_clear(&node->deps);
    free(node);
}

void emu_graph_free(CUgraph g)
{
    for (size_t i = 0; i < nlive; i++) {
        if (live[i] == g) {
            live[i] = live[--nlive];
            break;
        }
    }
    for (size_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    free(g);
}

CUresult emu_graph_check(CUgraph g)
{
    CUresult r = emu_check_init();
    if (r != CUDA_SUCCESS)
        return r;
    for (size_t i = 0; i < nlive; i++)
        if (live[i] == g)
            return CUDA_SUCCESS;
    return CUDA_ERROR_INVALID_VALUE;
}

static size_t node_index(CUgraph g, CUgraphNode node)
{
    size_t i = 0;
    while (i < g->n && g->nodes[i] != node)
        i++;
    return i;
}

CUresult emu_node_check(CUgraphNode node)
{
    CUresult r = emu_check_init();
    if (r != CUDA_SUCCESS)
        return r;
    if (!node)
        return CUDA_ERROR_INVALID_VALUE;
    /* A node's graph pointer is only read once the node is known to be in
     * a live graph. */
    for (size_t i = 0; i < nlive; i++)
        if (node_index(live[i], node) < live[i]->n)
            return CUDA_SUCCESS;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult emu_node_check_type(CUgraphNode node, CUgraphNodeType type)
{
    CUresult r = emu_node_check(node);
    if (r == CUDA_SUCCESS && node->type != type)
        r = CUDA_ERROR_INVALID_VALUE;
    return r;
}

static CUgraphNode node_append(CUgraph g, CUgraphNodeType type, emu_op *tmpl, CUgraph child)
{
    CUgraphNode node = emu_xcalloc(1, sizeof *node);
    node->graph = g;
    node->type = type;
    node->tmpl = tmpl;
    node->child = child;
    if (child)
        child->parent = node;
    g->nodes = emu_grow(g->nodes, g->n, &g->cap, sizeof *g->nodes);
    g->nodes[g->n++] = node;
    return node;
}

CUresult emu_graph_add(CUgraph g, const CUgraphNode *deps, size_t ndeps, CUgraphNodeType type,
                       emu_op *tmpl, CUgraph child, CUgraphNode *out)
{
    CUresult r = out && (deps || ndeps == 0) ? emu_graph_check(g) : CUDA_ERROR_INVALID_VALUE;
    /* Dependencies: nodes of this graph, no duplicates. */
    for (size_t i = 0; r == CUDA_SUCCESS && i < ndeps; i++) {
        if (node_index(g, deps[i]) == g->n)
            r = CUDA_ERROR_INVALID_VALUE;
        for (size_t j = 0; j < i; j++)
            if (deps[j] == deps[i])
                r = CUDA_ERROR_INVALID_VALUE;
    }
    if (r != CUDA_SUCCESS) {
        if (tmpl)
            emu_op_discard(tmpl);
        if (child)
            emu_graph_free(child);
        return r;
    }
    CUgraphNode node = node_append(g, type, tmpl, child);
    for (size_t i = 0; i < ndeps; i++)
        emu_nodes_add(&node->deps, deps[i]);
    *out = node;
    return CUDA_SUCCESS;
}

CUgraph emu_graph_clone(CUgraph g, CUgraphNode parent)
{
    CUgraph c = emu_graph_new(parent);
    for (size_t i = 0; i < g->n; i++) {
        CUgraphNode o = g->nodes[i];
        CUgraphNode n = node_append(c, o->type, o->tmpl ? emu_op_clone(o->tmpl) : NULL, NULL);
        if (o->child) {
            n->child = emu_graph_clone(o->child, n);
        }
        for (size_t d = 0; d < o->deps.n; d++)
            emu_nodes_add(&n->deps, c->nodes[node_index(g, o->deps.v[d])]);
    }
    return c;
}

/* ---- the API --------------------------------------------------------------- */

CUresult CUDAAPI cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    if (!phGraph || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        *phGraph = emu_graph_new(NULL);
    emu_unlock();
    return r;
}

/* Embedded graphs belong to their node, a graph being captured into to its
 * capture sequence. */
CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph)
{
    emu_lock();
    CUresult r = emu_graph_check(hGraph);
    if (r == CUDA_SUCCESS && (hGraph->parent || hGraph->capturing))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        emu_graph_free(hGraph);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    if (!phGraphClone)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_graph_check(originalGraph);
    if (r == CUDA_SUCCESS)
        *phGraphClone = emu_graph_clone(originalGraph, NULL);
    emu_unlock();
    return r;
}

/* The cuGraphGetNodes convention: with a NULL array, the count; otherwise up
 * to *num entries, the rest NULL, and *num set to how many were filled. */
static void list_nodes(CUgraph g, bool roots_only, CUgraphNode *out, size_t *num)
{
    size_t k = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (roots_only && g->nodes[i]->deps.n)
            continue;
        if (out && k < *num)
            out[k] = g->nodes[i];
        k++;
    }
    if (out) {
        for (size_t i = k; i < *num; i++)
            out[i] = NULL;
        if (k < *num)
            *num = k;
    } else {
        *num = k;
    }
}

static CUresult get_nodes(CUgraph g, bool roots_only, CUgraphNode *out, size_t *num)
{
    if (!num)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_graph_check(g);
    if (r == CUDA_SUCCESS)
        list_nodes(g, roots_only, out, num);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    return get_nodes(hGraph, false, nodes, numNodes);
}

CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes, size_t *numRootNodes)
{
    return get_nodes(hGraph, true, rootNodes, numRootNodes);
}

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    if (!type)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_node_check(hNode);
    if (r == CUDA_SUCCESS)
        *type = hNode->type;
    emu_unlock();
    return r;
}

/* Edge data is all zero here (no programmatic or port edges). */
static CUresult get_dependencies(CUgraphNode node, CUgraphNode *deps, CUgraphEdgeData *edges, size_t *num)
{
    if (!num || (edges && !deps))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_node_check(node);
    if (r == CUDA_SUCCESS) {
        const emu_nodes *d = &node->deps;
        if (!deps) {
            *num = d->n;
        } else {
            size_t k = d->n < *num ? d->n : *num;
            for (size_t i = 0; i < *num; i++) {
                deps[i] = i < k ? d->v[i] : NULL;
                if (edges)
                    edges[i] = (CUgraphEdgeData){ 0 };
            }
            *num = k;
        }
    }
    emu_unlock();
    return r;
}

/* The CUDA 10.0 ABI: no edge data. */
CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode *dependencies,
                                            size_t *numDependencies)
{
    return get_dependencies(hNode, dependencies, NULL, numDependencies);
}

CUresult CUDAAPI cuGraphNodeGetDependencies_v2(CUgraphNode hNode, CUgraphNode *dependencies,
                                               CUgraphEdgeData *edgeData, size_t *numDependencies)
{
    return get_dependencies(hNode, dependencies, edgeData, numDependencies);
}

CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                     size_t numDependencies)
{
    emu_lock();
    CUresult r = emu_graph_add(hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_EMPTY, NULL, NULL,
                               phGraphNode);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
                                          const CUgraphNode *dependencies, size_t numDependencies,
                                          CUgraph childGraph)
{
    emu_lock();
    CUresult r = emu_graph_check(childGraph);
    if (r == CUDA_SUCCESS && childGraph == hGraph)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = emu_graph_add(hGraph, dependencies, numDependencies, CU_GRAPH_NODE_TYPE_GRAPH, NULL,
                          emu_graph_clone(childGraph, NULL), phGraphNode);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
    if (!phGraph)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_node_check_type(hNode, CU_GRAPH_NODE_TYPE_GRAPH);
    if (r == CUDA_SUCCESS)
        *phGraph = hNode->child;
    emu_unlock();
    return r;
}
