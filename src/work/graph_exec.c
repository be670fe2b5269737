/* SPDX-License-Identifier: Apache-2.0 */
/* The table of executable graphs: each with the items of the graph it was
 * instantiated from (or last updated with), read off the driver outside
 * the lock (work/graph_walk.c), and what its previous launch stands for. */
#include "config.h"

#include <stdlib.h>
#include <uthash.h>

#include "base/lock.h"
#include "model/model.h"
#include "work/graph.h"
#include "work/graph_int.h"
#include "work/graph_walk.h"

struct graph_exec *sg_graph_execs SG_GUARDED_BY(sg_graphs_lock);

static void hold_host_fns(struct graph_items *it, int delta)
{
    for (size_t i = 0; i < it->n; i++)
        if (it->v[i].kind == GI_HOST && it->v[i].host)
            it->v[i].host->users += delta;
}

void sg_graph_forget(CUgraphExec exec)
{
    struct graph_exec *g;
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, g);
    if (g) {
        HASH_DEL(sg_graph_execs, g);
        hold_host_fns(&g->items, -1);
    }
    sg_unlock(&sg_graphs_lock);
    if (g) {
        sg_graph_items_free(&g->items);
        sg_vc_free(&g->last);
        free(g);
    }
}

const struct graph_walk_ops sg_graph_walk_ops = { sg_graph_trampoline_of, sg_graph_conditional_bodies };

/* Reads the graph the executable graph was made from (or updated with). */
static void read_graph(CUgraphExec exec, CUgraph graph)
{
    struct graph_exec *g = calloc(1, sizeof *g);
    if (!g)
        return;
    g->exec = exec;
    sg_graph_walk(graph, &g->items, &sg_graph_walk_ops);
    struct graph_exec *old;
    sg_lock(&sg_graphs_lock);
    HASH_FIND_PTR(sg_graph_execs, &exec, old);
    if (old) {
        /* an update (launches stay ordered), or a handle the driver reused */
        HASH_DEL(sg_graph_execs, old);
        hold_host_fns(&old->items, -1);
        sg_vc_copy(&g->last, &old->last);
    }
    hold_host_fns(&g->items, 1);
    HASH_ADD_PTR(sg_graph_execs, exec, g);
    sg_unlock(&sg_graphs_lock);
    if (old) {
        sg_graph_items_free(&old->items);
        sg_vc_free(&old->last);
        free(old);
    }
}

void sg_graph_instantiated(CUgraphExec exec, CUgraph graph)
{
    sg_graph_forget(exec); /* a handle the driver reused */
    read_graph(exec, graph);
}

void sg_graph_updated(CUgraphExec exec, CUgraph graph)
{
    read_graph(exec, graph);
}
