/* SPDX-License-Identifier: Apache-2.0 */
/* Updates of an executable graph's nodes (cuGraphExec*SetParams): the
 * next launch runs the new parameters. A child graph node given another
 * graph's parameters takes them item for item. */
#include "config.h"

#include <stdlib.h>
#include <uthash.h>

#include "base/lock.h"
#include "base/log.h"
#include "work/graph.h"
#include "work/graph_int.h"
#include "work/graph_walk.h"

/* Calls fn on the item of exec standing for node, under the lock; fn may
 * mark the items (a node that mattered to nothing may matter now). */
typedef void update_fn(struct graph_items *items, struct graph_item *it, const void *arg);

static void update_item(CUgraphExec exec, CUgraphNode node, update_fn *fn, const void *arg)
{
    struct graph_exec *g;
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    for (size_t i = 0; g && i < g->items.n; i++)
        if (g->items.v[i].node == node)
            fn(&g->items, &g->items.v[i], arg);
    sg_unlock(&sg_graphs_lock);
}

static void set_copy(struct graph_items *items, struct graph_item *it, const void *arg)
{
    if (it->kind == GI_COPY || it->kind == GI_OTHER) {
        it->kind = GI_COPY;
        it->copy = *(const CUDA_MEMCPY3D *)arg;
        items->interesting = 1;
    }
}

static void set_host(struct graph_items *items, struct graph_item *it, const void *arg)
{
    (void)items;
    if (it->kind != GI_HOST)
        return;
    if (it->host)
        it->host->users--;
    it->host = (struct graph_host_fn *)arg;
    if (it->host)
        it->host->users++;
}

static void set_kernel(struct graph_items *items, struct graph_item *it, const void *arg)
{
    if ((it->kind == GI_KERNEL || it->kind == GI_OTHER) && sg_graph_kernel_item_set(it, arg)) {
        it->kind = GI_KERNEL;
        items->kernels = 1;
        items->kernels_gen = 0; /* its pointers are to be looked up again */
    }
}

static void set_memop(struct graph_items *items, struct graph_item *it, const void *arg)
{
    const CUDA_BATCH_MEM_OP_NODE_PARAMS *p = arg;
    if (it->kind != GI_MEMOP && it->kind != GI_OTHER)
        return;
    if (p->paramArray && sg_graph_memop_item_set(it, p)) {
        it->kind = GI_MEMOP;
        items->interesting = 1;
    } else if (it->kind == GI_MEMOP) {
        it->kind = GI_OTHER; /* writes nothing now */
        free(it->writes), it->writes = NULL, it->nwrites = 0;
    }
}

static void set_memset(struct graph_items *items, struct graph_item *it, const void *arg)
{
    if (it->kind == GI_MEMSET || it->kind == GI_OTHER) {
        it->kind = GI_MEMSET;
        sg_graph_memset_item_set(it, arg);
        items->interesting = 1;
    }
}

/* An event record or wait node (arg: its kind) records or waits for
 * another event; the item may have been left GI_OTHER if its event could
 * not be read at instantiation. */
struct event_set {
    int kind;
    CUevent event;
};

static void set_event(struct graph_items *items, struct graph_item *it, const void *arg)
{
    const struct event_set *e = arg;
    if (it->kind == e->kind || it->kind == GI_OTHER) {
        it->kind = e->kind;
        it->event = e->event;
        items->interesting = 1;
    }
}

void sg_graph_exec_kernel_set(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p)
{
    update_item(exec, node, set_kernel, p);
}

void sg_graph_exec_memop_set(CUgraphExec exec, CUgraphNode node, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
    update_item(exec, node, set_memop, p);
}

void sg_graph_exec_copy_set(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D *p)
{
    update_item(exec, node, set_copy, p);
}

void sg_graph_exec_memset_set(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS *p)
{
    update_item(exec, node, set_memset, p);
}

void sg_graph_exec_event_set(CUgraphExec exec, CUgraphNode node, CUevent e, int record)
{
    struct event_set set = { record ? GI_RECORD : GI_WAIT, e };
    update_item(exec, node, set_event, &set);
}

void sg_graph_exec_host_set(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS *p)
{
    update_item(exec, node, set_host, sg_graph_trampoline_of(p));
}

/* ---- a child graph node given another graph's parameters ---- */

/* The entry item of the child graph node `node` among items, or -1.
 * sg_graphs_lock held. */
SG_REQUIRES(sg_graphs_lock)
static long child_entry(const struct graph_items *items, CUgraphNode node)
{
    for (size_t i = 0; i < items->n; i++)
        if (items->v[i].node == node && items->v[i].kind == GI_OTHER)
            return (long)i;
    return -1;
}

/* Item `to` takes the parameters of `from`, an item of a fresh walk that
 * keeps nothing of it; its node and dependencies stay. sg_graphs_lock held. */
SG_REQUIRES(sg_graphs_lock)
static void take_params(struct graph_items *items, struct graph_item *to, struct graph_item *from)
{
    if (to->kind == GI_HOST && to->host)
        to->host->users--;
    free(to->ptrs), free(to->writes), free(from->deps);
    CUgraphNode node = to->node;
    size_t ndeps = to->ndeps, *deps = to->deps;
    *to = *from;
    to->node = node, to->ndeps = ndeps, to->deps = deps;
    from->ptrs = NULL, from->writes = NULL, from->deps = NULL;
    from->nptrs = 0, from->nwrites = 0, from->ndeps = 0;
    if (to->kind == GI_HOST && to->host)
        to->host->users++;
    if (to->kind == GI_KERNEL)
        items->kernels = 1, items->kernels_gen = 0;
    else if (to->kind != GI_OTHER)
        items->interesting = 1;
}

/* Gives the body items after entry `at` the new body's parameters, if it
 * has as many (the driver took a graph of the same topology, so it has).
 * sg_graphs_lock held. */
SG_REQUIRES(sg_graphs_lock)
static int take_body(struct graph_items *items, long at, struct graph_items *body)
{
    size_t span = items->v[at].span;
    if (body->n + (body->n ? 1 : 0) != span)
        return 0;
    for (size_t i = 0; i < body->n; i++)
        take_params(items, &items->v[(size_t)at + 1 + i], &body->v[i]);
    return 1;
}

/* "Updates the work represented by hNode in hGraphExec as though the nodes
 * contained in hNode's graph had the parameters contained in childGraph's
 * nodes at instantiation": the new graph is read (outside the lock, as at
 * instantiation), and its items' parameters replace those of the node's
 * body, one for one in the walk's order. */
void sg_graph_exec_child_set(CUgraphExec exec, CUgraphNode node, CUgraph child)
{
    struct graph_exec *g;
    int depth = 0, blind = 0, taken = 0;
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    long at = g ? child_entry(&g->items, node) : -1;
    if (at >= 0)
        depth = g->items.v[at].depth, blind = g->items.blind_conditions;
    sg_unlock(&sg_graphs_lock);
    if (at < 0)
        return;
    struct graph_items body = { 0 };
    sg_graph_walk_body(child, depth, blind, &body, &sg_graph_walk_ops);
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    at = g ? child_entry(&g->items, node) : -1;
    if (at >= 0)
        taken = take_body(&g->items, at, &body);
    sg_unlock(&sg_graphs_lock);
    sg_graph_items_free(&body);
    if (at >= 0 && !taken)
        SG_WARN_ONCE("cuGraphExecChildGraphNodeSetParams: the new child graph's nodes do not "
                     "match the old one's as syncguard read them; launches of the executable "
                     "graph are modelled with the old child graph\n");
}
