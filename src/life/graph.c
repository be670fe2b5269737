/* SPDX-License-Identifier: Apache-2.0 */
/* The graphs a program instantiates and launches. A graph's memcpy nodes
 * copy when the graph runs, not when it is built, so the copies with a
 * host side are read off the graph once, at instantiation, and guarded at
 * every launch like copies enqueued on the launch stream. (Copies recorded
 * by a stream capture are never guarded at capture: they had not run.)
 * Changes made to an instantiated graph with cuGraphExec*SetParams are not
 * followed. The shims are preload/cuda/graph.c. */
#include "config.h"

#include <stdlib.h>
#include <uthash.h>

#include "base/lock.h"
#include "driver/driver.h"
#include "life/graph.h"
#include "life/life.h"
#include "life/site.h"
#include "model/sync.h"

#define MAX_DEPTH 8

struct graph_copies {
    CUgraphExec exec;
    UT_hash_handle hh;
    size_t n, cap;
    CUDA_MEMCPY3D *copies;
};

static struct graph_copies *execs;
static sg_lock_t graphs_lock = SG_LOCK_INIT;

/* Launches of one executable graph run one after the other, whatever the
 * streams: each launch follows what the previous one stood for. */
struct graph_order {
    CUgraphExec exec;
    UT_hash_handle hh;
    struct sg_vc last;
};

static struct graph_order *orders;

/* Host functions in graphs (a cuLaunchHostFunc captured, or a host node
 * added): when one runs, the graph's work before it is complete. Which
 * work that is needs the graph's dependencies; syncguard takes the whole
 * current launch of the executable graph instead, so a copy in a node
 * after the host node can go unreported (never a false report). */
struct graph_host_fn {
    CUhostFn fn;
    void *data;
    CUgraphExec exec; /* set at instantiation */
};

static void CUDA_CB run_graph_host_fn(void *arg)
{
    struct graph_host_fn *t = arg;
    struct sg_vc covered = { 0 };
    struct graph_order *o;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(orders, &t->exec, o);
    if (o)
        sg_vc_copy(&covered, &o->last);
    sg_unlock(&graphs_lock);
    struct sg_sync_site site = SG_SYNC_SITE("a graph host node", SG_SYNC_HOST_FN, t->exec);
    sg_observe_if(covered.n > 0, &covered, &site);
    t->fn(t->data);
}

/* The trampoline lives as long as the process: graphs may run it any time. */
int sg_graph_wrap_host_fn(CUhostFn *fn, void **data)
{
    struct graph_host_fn *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->fn = *fn, t->data = *data;
    *fn = run_graph_host_fn, *data = t;
    return 0;
}

static void note_host_node(CUgraphNode node, CUgraphExec exec)
{
    const struct sg_driver *d = sg_driver();
    CUDA_HOST_NODE_PARAMS p;
    if (d->cuGraphHostNodeGetParams && d->cuGraphHostNodeGetParams(node, &p) == CUDA_SUCCESS &&
        p.fn == run_graph_host_fn)
        ((struct graph_host_fn *)p.userData)->exec = exec;
}

static int has_host_side(const CUDA_MEMCPY3D *p)
{
    return p->srcMemoryType == CU_MEMORYTYPE_HOST || p->dstMemoryType == CU_MEMORYTYPE_HOST ||
           p->srcMemoryType == CU_MEMORYTYPE_UNIFIED ||
           p->dstMemoryType == CU_MEMORYTYPE_UNIFIED;
}

static void add_copy(struct graph_copies *g, const CUDA_MEMCPY3D *p)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 8;
        CUDA_MEMCPY3D *c = realloc(g->copies, cap * sizeof *c);
        if (!c)
            return; /* that copy goes unguarded */
        g->copies = c, g->cap = cap;
    }
    g->copies[g->n++] = *p;
}

static void collect(struct graph_copies *g, CUgraph graph, int depth)
{
    const struct sg_driver *d = sg_driver();
    size_t n = 0;
    if (depth > MAX_DEPTH || !d->cuGraphGetNodes || !d->cuGraphNodeGetType ||
        d->cuGraphGetNodes(graph, NULL, &n) != CUDA_SUCCESS || n == 0)
        return;
    CUgraphNode *nodes = calloc(n, sizeof *nodes);
    if (!nodes || d->cuGraphGetNodes(graph, nodes, &n) != CUDA_SUCCESS)
        n = 0;
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType type;
        CUDA_MEMCPY3D p;
        CUgraph child;
        if (d->cuGraphNodeGetType(nodes[i], &type) != CUDA_SUCCESS)
            continue;
        if (type == CU_GRAPH_NODE_TYPE_MEMCPY && d->cuGraphMemcpyNodeGetParams &&
            d->cuGraphMemcpyNodeGetParams(nodes[i], &p) == CUDA_SUCCESS && has_host_side(&p))
            add_copy(g, &p);
        if (type == CU_GRAPH_NODE_TYPE_HOST)
            note_host_node(nodes[i], g->exec);
        if (type == CU_GRAPH_NODE_TYPE_GRAPH && d->cuGraphChildGraphNodeGetGraph &&
            d->cuGraphChildGraphNodeGetGraph(nodes[i], &child) == CUDA_SUCCESS)
            collect(g, child, depth + 1);
    }
    free(nodes);
}

void sg_graph_forget(CUgraphExec exec)
{
    struct graph_copies *g;
    struct graph_order *o;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    if (g)
        HASH_DEL(execs, g);
    HASH_FIND_PTR(orders, &exec, o);
    if (o)
        HASH_DEL(orders, o);
    sg_unlock(&graphs_lock);
    if (g)
        free(g->copies), free(g);
    if (o)
        sg_vc_free(&o->last), free(o);
}

/* The launch as stream work, after the previous launch of the graph. */
static void order_launch(CUgraphExec exec, CUstream s, int per_thread)
{
    struct sg_vc after = { 0 }, then = { 0 };
    struct graph_order *o;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(orders, &exec, o);
    if (o)
        sg_vc_copy(&after, &o->last);
    sg_unlock(&graphs_lock);
    sg_note_ordered_work(s, per_thread, &after, &then);
    sg_vc_free(&after);
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(orders, &exec, o);
    if (!o && (o = calloc(1, sizeof *o)) != NULL) {
        o->exec = exec;
        HASH_ADD_PTR(orders, exec, o);
    }
    if (o)
        sg_vc_join(&o->last, &then);
    sg_unlock(&graphs_lock);
    sg_vc_free(&then);
}

void sg_graph_instantiated(CUgraphExec exec, CUgraph graph)
{
    struct graph_copies *g = calloc(1, sizeof *g);
    if (!g)
        return;
    g->exec = exec;
    collect(g, graph, 0);
    if (g->n == 0) {
        free(g);
        return;
    }
    sg_graph_forget(exec); /* a handle the driver reused */
    sg_lock(&graphs_lock);
    HASH_ADD_PTR(execs, exec, g);
    sg_unlock(&graphs_lock);
}

/* Copies the graph's host copies out under the lock, then guards them. */
static void launched(CUgraphExec exec, CUstream s, int per_thread)
{
    struct graph_copies *g;
    CUDA_MEMCPY3D *copies = NULL;
    size_t n = 0;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    if (g && (copies = malloc(g->n * sizeof *copies)) != NULL) {
        n = g->n;
        for (size_t i = 0; i < n; i++)
            copies[i] = g->copies[i];
    }
    sg_unlock(&graphs_lock);
    struct copy_call call;
    sg_copy_call_init(&call, "cuGraphLaunch (memcpy node)", s, per_thread);
    for (size_t i = 0; i < n; i++)
        sg_copy_call_guard_3d(&call, &copies[i]);
    free(copies);
}


void sg_graph_launched(CUgraphExec exec, CUstream s, int per_thread)
{
    int guards = execs && sg_pinned_any();
    if (guards)
        launched(exec, s, per_thread);
    if (guards || sg_observe_needed())
        order_launch(exec, s, per_thread);
}
