/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a graph's nodes and edges off the driver (cuGraphGetNodes,
 * cuGraphNodeGetDependencies, the nodes' Get functions) into the flat list
 * of items work/graph_launch.c models launches with. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/kparams.h"
#include "work/graph_order.h"
#include "work/graph_walk.h"
#include "work/kernel.h"

#define MAX_DEPTH 8
#define MAX_BODIES 8

static size_t add_item(struct graph_items *it, int kind, CUgraphNode node, const size_t *deps,
                       size_t ndeps)
{
    if (it->n == it->cap) {
        size_t cap = it->cap ? 2 * it->cap : 16;
        struct graph_item *v = realloc(it->v, cap * sizeof *v);
        if (!v)
            return (size_t)-1;
        it->v = v, it->cap = cap;
    }
    struct graph_item *x = &it->v[it->n];
    memset(x, 0, sizeof *x);
    x->kind = kind, x->node = node;
    if (ndeps && (x->deps = malloc(ndeps * sizeof *x->deps)) != NULL) {
        memcpy(x->deps, deps, ndeps * sizeof *deps);
        x->ndeps = ndeps;
    }
    if (kind == GI_KERNEL)
        it->kernels = 1;
    else if (kind != GI_OTHER)
        it->interesting = 1;
    return it->n++;
}

/* The dependencies of node, as nodes: n of them in a malloc'ed array. */
static CUgraphNode *node_deps(CUgraphNode node, size_t *n)
{
    const struct sg_driver *d = sg_driver();
    *n = 0;
    CUresult r = d->cuGraphNodeGetDependencies_v2 ? d->cuGraphNodeGetDependencies_v2(node, NULL, NULL, n)
                 : d->cuGraphNodeGetDependencies_v1 ? d->cuGraphNodeGetDependencies_v1(node, NULL, n)
                                                    : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS || *n == 0) {
        *n = 0;
        return NULL;
    }
    CUgraphNode *v = calloc(*n, sizeof *v);
    if (!v) {
        *n = 0;
        return NULL;
    }
    r = d->cuGraphNodeGetDependencies_v2 ? d->cuGraphNodeGetDependencies_v2(node, v, NULL, n)
                                         : d->cuGraphNodeGetDependencies_v1(node, v, n);
    if (r != CUDA_SUCCESS)
        *n = 0;
    return v;
}

static CUgraphNode *graph_nodes(CUgraph g, size_t *n)
{
    const struct sg_driver *d = sg_driver();
    *n = 0;
    if (!d->cuGraphGetNodes || d->cuGraphGetNodes(g, NULL, n) != CUDA_SUCCESS || *n == 0)
        return NULL;
    CUgraphNode *v = calloc(*n, sizeof *v);
    if (!v || d->cuGraphGetNodes(g, v, n) != CUDA_SUCCESS)
        *n = 0;
    return v;
}

struct walk {
    struct graph_items *out;
    const struct graph_walk_ops *ops;
    int kernels; /* the graph has kernel nodes: conditions may change */
};

static void walk_graph(struct walk *w, CUgraph g, const size_t *entry, size_t nentry, int depth);

/* The items after the ones from `from` on, as dependencies: a child graph
 * or body is complete when all of its items are. */
static size_t join_since(struct walk *w, size_t from, size_t fallback)
{
    size_t n = w->out->n - from;
    if (n == 0)
        return fallback;
    size_t *all = malloc(n * sizeof *all);
    if (!all)
        return fallback;
    for (size_t i = 0; i < n; i++)
        all[i] = from + i;
    size_t j = add_item(w->out, GI_OTHER, NULL, all, n);
    free(all);
    return j == (size_t)-1 ? fallback : j;
}

/* A memset as the copy it amounts to for the host: a destination of
 * height rows of width elements, pitch bytes apart, and no source. */
void sg_graph_memset_item_set(struct graph_item *x, const CUDA_MEMSET_NODE_PARAMS *p)
{
    CUDA_MEMCPY3D *c = &x->copy;
    memset(c, 0, sizeof *c);
    c->dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c->dstDevice = p->dst;
    c->WidthInBytes = p->width * p->elementSize;
    c->dstPitch = p->height > 1 ? p->pitch : c->WidthInBytes;
    c->Height = p->height, c->dstHeight = p->height, c->Depth = 1;
    c->srcMemoryType = CU_MEMORYTYPE_ARRAY; /* none: never a host side */
}

static int memset_item(CUgraphNode node, struct graph_item *x)
{
    const struct sg_driver *d = sg_driver();
    CUDA_MEMSET_NODE_PARAMS p;
    if (!d->cuGraphMemsetNodeGetParams || d->cuGraphMemsetNodeGetParams(node, &p) != CUDA_SUCCESS)
        return 0;
    sg_graph_memset_item_set(x, &p);
    return 1;
}

int sg_graph_kernel_item_set(struct graph_item *x, const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUfunction f = p->func ? p->func : (CUfunction)p->kern;
    if (!f)
        return 0;
    const struct sg_kparams *k = sg_kparams_of(f);
    uintptr_t v[SG_KPARAMS_MAX_PTRS];
    unsigned n = sg_kernel_pointer_values(k, p->kernelParams, p->extra, v);
    uintptr_t *ptrs = n ? malloc(n * sizeof *ptrs) : NULL;
    if (n && !ptrs)
        return 0;
    if (n)
        memcpy(ptrs, v, n * sizeof *ptrs);
    free(x->ptrs);
    x->kernel = k->name, x->func = f, x->nptrs = n, x->ptrs = ptrs;
    return 1;
}

int sg_graph_memop_item_set(struct graph_item *x, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
    unsigned n = 0;
    struct graph_write *w = p->count ? calloc(p->count, sizeof *w) : NULL;
    for (unsigned i = 0; w && i < p->count; i++) {
        const struct CUstreamMemOpWriteValueParams_st *op = &p->paramArray[i].writeValue;
        if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32)
            w[n++] = (struct graph_write){ op->address, op->value, 4 };
        else if (op->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64)
            w[n++] = (struct graph_write){ op->address, op->value64, 8 };
    }
    if (!n) {
        free(w);
        return 0;
    }
    free(x->writes);
    x->writes = w, x->nwrites = n;
    return 1;
}

static int memop_item(CUgraphNode node, struct graph_item *x)
{
    const struct sg_driver *d = sg_driver();
    CUDA_BATCH_MEM_OP_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    return d->cuGraphBatchMemOpNodeGetParams && d->cuGraphBatchMemOpNodeGetParams(node, &p) == CUDA_SUCCESS &&
           p.paramArray && sg_graph_memop_item_set(x, &p);
}

/* A kernel node: its parameters as the driver keeps them for the node. */
static int kernel_item(CUgraphNode node, struct graph_item *x)
{
    const struct sg_driver *d = sg_driver();
    CUDA_KERNEL_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    return d->cuGraphKernelNodeGetParams && d->cuGraphKernelNodeGetParams(node, &p) == CUDA_SUCCESS &&
           sg_graph_kernel_item_set(x, &p);
}

/* Adds the items of one node; returns the item that stands for its end. */
static size_t walk_node(struct walk *w, CUgraphNode node, const size_t *deps, size_t ndeps, int depth)
{
    const struct sg_driver *d = sg_driver();
    CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
    if (d->cuGraphNodeGetType)
        d->cuGraphNodeGetType(node, &type);
    size_t at;
    CUgraph child;
    CUDA_HOST_NODE_PARAMS hp;
    switch (type) {
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        at = add_item(w->out, GI_COPY, node, deps, ndeps);
        if (at != (size_t)-1 && (!d->cuGraphMemcpyNodeGetParams ||
                                 d->cuGraphMemcpyNodeGetParams(node, &w->out->v[at].copy) != CUDA_SUCCESS))
            w->out->v[at].kind = GI_OTHER;
        return at;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        at = add_item(w->out, GI_MEMSET, node, deps, ndeps);
        if (at != (size_t)-1 && !memset_item(node, &w->out->v[at]))
            w->out->v[at].kind = GI_OTHER;
        return at;
    case CU_GRAPH_NODE_TYPE_KERNEL:
        at = add_item(w->out, GI_KERNEL, node, deps, ndeps);
        if (at != (size_t)-1 && !kernel_item(node, &w->out->v[at]))
            w->out->v[at].kind = GI_OTHER;
        return at;
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        at = add_item(w->out, GI_MEMOP, node, deps, ndeps);
        if (at != (size_t)-1 && !memop_item(node, &w->out->v[at]))
            w->out->v[at].kind = GI_OTHER;
        return at;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        at = add_item(w->out, type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ? GI_RECORD : GI_WAIT, node, deps, ndeps);
        if (at != (size_t)-1) {
            CUresult (*get)(CUgraphNode, CUevent *) = type == CU_GRAPH_NODE_TYPE_EVENT_RECORD
                                                           ? d->cuGraphEventRecordNodeGetEvent
                                                           : d->cuGraphEventWaitNodeGetEvent;
            if (!get || get(node, &w->out->v[at].event) != CUDA_SUCCESS)
                w->out->v[at].kind = GI_OTHER;
        }
        return at;
    case CU_GRAPH_NODE_TYPE_HOST:
        at = add_item(w->out, GI_HOST, node, deps, ndeps);
        if (at != (size_t)-1 && d->cuGraphHostNodeGetParams && d->cuGraphHostNodeGetParams(node, &hp) == CUDA_SUCCESS)
            w->out->v[at].host = w->ops->host_of(&hp);
        return at;
    case CU_GRAPH_NODE_TYPE_GRAPH:
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
        size_t enter = add_item(w->out, GI_OTHER, node, deps, ndeps);
        if (enter == (size_t)-1 || depth >= MAX_DEPTH)
            return enter;
        w->out->v[enter].depth = depth;
        size_t from = w->out->n;
        if (type == CU_GRAPH_NODE_TYPE_GRAPH) {
            if (d->cuGraphChildGraphNodeGetGraph && d->cuGraphChildGraphNodeGetGraph(node, &child) == CUDA_SUCCESS)
                walk_graph(w, child, &enter, 1, depth + 1);
        } else {
            CUgraph bodies[MAX_BODIES];
            /* a kernel may set the condition: which body runs is unknown,
             * and none is guarded (never a false report) */
            int n = w->kernels ? 0 : w->ops->bodies_of(node, 0, bodies, MAX_BODIES);
            for (int i = 0; i < n; i++)
                walk_graph(w, bodies[i], &enter, 1, depth + 1);
        }
        size_t end = join_since(w, from, enter);
        w->out->v[enter].span = w->out->n - from;
        return end;
    }
    default:
        return add_item(w->out, GI_OTHER, node, deps, ndeps);
    }
}

/* The listing number of each node, found by its address: open addressing
 * in a table of at least twice as many slots (expected O(1) a look-up). */
struct node_index {
    const CUgraphNode *nodes;
    size_t n, mask;
    size_t *slot; /* number + 1; 0: empty */
};

static size_t node_hash(CUgraphNode node)
{
    uint64_t x = (uint64_t)(uintptr_t)node;
    x ^= x >> 33, x *= 0xff51afd7ed558ccdULL, x ^= x >> 33;
    return (size_t)x;
}

static int index_init(struct node_index *ix, const CUgraphNode *nodes, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    ix->nodes = nodes, ix->n = n, ix->mask = cap - 1;
    ix->slot = calloc(cap, sizeof *ix->slot);
    if (!ix->slot)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t h = node_hash(nodes[i]) & ix->mask;
        while (ix->slot[h] && nodes[ix->slot[h] - 1] != nodes[i])
            h = (h + 1) & ix->mask;
        if (!ix->slot[h])
            ix->slot[h] = i + 1; /* a node listed twice: its first */
    }
    return 0;
}

/* The node's number, or n when it is not in the listing. */
static size_t index_find(const struct node_index *ix, CUgraphNode node)
{
    for (size_t h = node_hash(node) & ix->mask; ix->slot[h]; h = (h + 1) & ix->mask)
        if (ix->nodes[ix->slot[h] - 1] == node)
            return ix->slot[h] - 1;
    return ix->n;
}

/* The nodes of g in a topological order (the driver's listing need not be
 * one), that of passes over the listing adding each node once all its
 * dependencies are (work/graph_order.h). entry: what the graph's roots
 * depend on. */
static void walk_graph(struct walk *w, CUgraph g, const size_t *entry, size_t nentry, int depth)
{
    size_t n;
    CUgraphNode *nodes = graph_nodes(g, &n);
    struct node_index ix = { 0 };
    size_t *start = n ? calloc(n + 1, sizeof *start) : NULL; /* node i's deps: dep[start[i]..] */
    CUgraphNode **dn = n ? calloc(n, sizeof *dn) : NULL;
    size_t *dep = NULL, *order = NULL, *end = NULL, *deps = NULL, most = 0;
    if (!nodes || !start || !dn || index_init(&ix, nodes, n) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        size_t nd;
        dn[i] = node_deps(nodes[i], &nd);
        start[i + 1] = start[i] + nd;
        most = nd > most ? nd : most;
    }
    dep = malloc((start[n] ? start[n] : 1) * sizeof *dep);
    order = malloc(n * sizeof *order);
    end = calloc(n, sizeof *end); /* item of each node, +1 */
    deps = malloc((most ? most : 1) * sizeof *deps);
    if (!dep || !order || !end || !deps)
        goto out;
    for (size_t i = 0; i < n; i++)
        for (size_t k = start[i]; k < start[i + 1]; k++)
            dep[k] = index_find(&ix, dn[i][k - start[i]]);
    size_t m = sg_graph_order(n, start, dep, order);
    for (size_t o = 0; o < m; o++) {
        size_t i = order[o], nd = start[i + 1] - start[i];
        for (size_t k = 0; k < nd; k++)
            deps[k] = end[dep[start[i] + k]] - 1;
        size_t at = nd ? walk_node(w, nodes[i], deps, nd, depth) : walk_node(w, nodes[i], entry, nentry, depth);
        end[i] = at == (size_t)-1 ? (size_t)-1 : at + 1;
    }
out:
    for (size_t i = 0; dn && i < n; i++)
        free(dn[i]);
    free(dn), free(start), free(dep), free(order), free(end), free(deps), free(ix.slot), free(nodes);
}

static int has_kernels(const struct graph_walk_ops *ops, CUgraph g, int depth)
{
    const struct sg_driver *d = sg_driver();
    size_t n;
    CUgraphNode *nodes = graph_nodes(g, &n);
    int found = 0;
    for (size_t i = 0; nodes && i < n && !found; i++) {
        CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
        CUgraph child;
        if (d->cuGraphNodeGetType)
            d->cuGraphNodeGetType(nodes[i], &type);
        if (type == CU_GRAPH_NODE_TYPE_KERNEL)
            found = 1;
        else if (type == CU_GRAPH_NODE_TYPE_GRAPH && depth < MAX_DEPTH && d->cuGraphChildGraphNodeGetGraph &&
                 d->cuGraphChildGraphNodeGetGraph(nodes[i], &child) == CUDA_SUCCESS)
            found = has_kernels(ops, child, depth + 1);
        else if (type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
            CUgraph bodies[MAX_BODIES];
            int nb = ops->bodies_of(nodes[i], 1, bodies, MAX_BODIES);
            for (int b = 0; b < nb && !found && depth < MAX_DEPTH; b++)
                found = has_kernels(ops, bodies[b], depth + 1);
        }
    }
    free(nodes);
    return found;
}

void sg_graph_walk(CUgraph g, struct graph_items *out, const struct graph_walk_ops *ops)
{
    struct walk w = { out, ops, has_kernels(ops, g, 0) };
    out->blind_conditions = w.kernels;
    walk_graph(&w, g, NULL, 0, 0);
}

void sg_graph_walk_body(CUgraph g, int depth, int blind_conditions, struct graph_items *out,
                        const struct graph_walk_ops *ops)
{
    struct walk w = { out, ops, blind_conditions };
    out->blind_conditions = blind_conditions;
    if (depth < MAX_DEPTH)
        walk_graph(&w, g, NULL, 0, depth + 1);
}

void sg_graph_items_free(struct graph_items *items)
{
    for (size_t i = 0; i < items->n; i++)
        free(items->v[i].deps), free(items->v[i].ptrs), free(items->v[i].writes);
    free(items->v);
    memset(items, 0, sizeof *items);
}
