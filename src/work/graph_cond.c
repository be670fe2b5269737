/* SPDX-License-Identifier: Apache-2.0 */
/* Conditional nodes: their bodies and the handles that pick one, as the
 * program made them (the driver has no call that gives them back), for
 * the walk of a graph (work/graph_walk.c). */
#include "config.h"

#include <stdlib.h>
#include <uthash.h>

#include "base/lock.h"
#include "work/graph.h"
#include "work/graph_int.h"

#define MAX_BODIES 8

struct cond_handle {
    CUgraphConditionalHandle handle;
    UT_hash_handle hh;
    unsigned value; /* assigned at every launch */
    int assigned;   /* CU_GRAPH_COND_ASSIGN_DEFAULT */
};

struct cond_node {
    CUgraphNode node;
    UT_hash_handle hh;
    CUgraphConditionalHandle handle;
    int type;
    unsigned n;
    CUgraph bodies[MAX_BODIES];
};

static struct cond_handle *cond_handles;
static struct cond_node *cond_nodes;

void sg_graph_conditional_handle(CUgraphConditionalHandle h, unsigned value, unsigned flags)
{
    struct cond_handle *c = calloc(1, sizeof *c);
    if (c) {
        c->handle = h, c->value = value, c->assigned = (flags & CU_GRAPH_COND_ASSIGN_DEFAULT) != 0;
        sg_lock(&sg_graphs_lock);
        struct cond_handle *old;
        HASH_FIND(hh, cond_handles, &c->handle, sizeof c->handle, old);
        if (old) {
            HASH_DEL(cond_handles, old);
            free(old);
        }
        HASH_ADD(hh, cond_handles, handle, sizeof c->handle, c);
        sg_unlock(&sg_graphs_lock);
    }
}

static void conditional_added(CUgraphNode node, const CUDA_CONDITIONAL_NODE_PARAMS *p)
{
    struct cond_node *c = calloc(1, sizeof *c);
    if (!c)
        return;
    c->node = node, c->handle = p->handle, c->type = p->type;
    c->n = p->size < MAX_BODIES ? p->size : MAX_BODIES;
    for (unsigned i = 0; i < c->n; i++)
        c->bodies[i] = p->phGraph_out[i];
    sg_lock(&sg_graphs_lock);
    struct cond_node *old;
    HASH_FIND_PTR(cond_nodes, &node, old);
    if (old) {
        HASH_DEL(cond_nodes, old);
        free(old);
    }
    HASH_ADD_PTR(cond_nodes, node, c);
    sg_unlock(&sg_graphs_lock);
}

int sg_graph_conditional_bodies(CUgraphNode node, int all, CUgraph *out, int max)
{
    int n = 0;
    sg_lock(&sg_graphs_lock);
    struct cond_node *c;
    struct cond_handle *h = NULL;
    HASH_FIND_PTR(cond_nodes, &node, c);
    if (c)
        HASH_FIND(hh, cond_handles, &c->handle, sizeof c->handle, h);
    if (c && all) {
        for (unsigned i = 0; i < c->n && n < max; i++)
            out[n++] = c->bodies[i];
    } else if (c && h && h->assigned && max > 0) {
        unsigned v = h->value;
        /* IF: body 0 when non-zero, else body 1 (if any); WHILE: body 0
         * (at least once) when non-zero; SWITCH: body v */
        long pick = c->type == CU_GRAPH_COND_TYPE_SWITCH ? (long)v : v ? 0 : c->type == CU_GRAPH_COND_TYPE_IF ? 1 : -1;
        if (pick >= 0 && (unsigned long)pick < c->n)
            out[n++] = c->bodies[pick];
    }
    sg_unlock(&sg_graphs_lock);
    return n;
}

/* The generic node API: conditional nodes' bodies are remembered (the
 * driver has no call that gives them back). */
void sg_graph_node_added(CUgraphNode node, const CUgraphNodeParams *p)
{
    if (p && p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL && p->conditional.phGraph_out)
        conditional_added(node, &p->conditional);
}
