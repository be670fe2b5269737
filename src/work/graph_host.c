/* SPDX-License-Identifier: Apache-2.0 */
/* Host functions in graphs (a cuLaunchHostFunc captured, or a host node
 * however made): syncguard's trampoline runs the program's function, and
 * shows the host, when it runs, what the node's ancestors stand for in the
 * launch that queued it (work/graph_launch.c). Also the lock of all graph
 * state (work/graph_int.h). */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/lock.h"
#include "life/life.h"
#include "model/model.h"
#include "model/sync.h"
#include "work/graph.h"
#include "work/graph_int.h"
#include "work/hostfn.h"

sg_lock_t sg_graphs_lock = SG_LOCK_INIT;

void sg_graph_place_put(struct launch_place *pl)
{
    if (pl && atomic_fetch_sub(&pl->users, 1) == 1)
        free(pl);
}

/* What one launch's host node will show when it runs, and where. */
struct pending_vc {
    struct pending_vc *next;
    struct sg_vc vc;
    struct launch_place *place;
};

static void CUDA_CB run_graph_host_fn(void *arg)
{
    struct graph_host_fn *t = arg;
    struct sg_vc covered = { 0 };
    struct launch_place *place = NULL;
    sg_lock(&sg_graphs_lock);
    struct pending_vc *p = t->head;
    if (p) {
        place = p->place;
        sg_vc_copy(&covered, &p->vc);
        for (struct pending_vc *q = p->next; t->users > 1 && q; q = q->next)
            sg_vc_join(&covered, &q->vc);
        t->head = p->next;
        if (!t->head)
            t->tail = NULL;
    }
    sg_unlock(&sg_graphs_lock);
    if (p)
        sg_vc_free(&p->vc), free(p);
    struct sg_sync_site site = SG_SYNC_SITE("a graph host node", SG_SYNC_HOST_FN, t);
    sg_observe_if(covered.n > 0, &covered, &site);
    uint64_t seq = place ? atomic_load(&place->seq) : 0;
    sg_host_fn_node_begin(seq ? place->stream : 0, seq);
    t->fn(t->data);
    sg_host_fn_node_end();
    sg_graph_place_put(place);
}

/* The function and data to put in a graph instead of the program's. The
 * trampoline lives as long as the process: graphs may run it any time. */
int sg_graph_wrap_host_fn(CUhostFn *fn, void **data)
{
    if (!*fn || *fn == run_graph_host_fn)
        return -1;
    struct graph_host_fn *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->fn = *fn, t->data = *data;
    *fn = run_graph_host_fn, *data = t;
    return 0;
}

struct graph_host_fn *sg_graph_trampoline_of(const CUDA_HOST_NODE_PARAMS *p)
{
    return p->fn == run_graph_host_fn ? p->userData : NULL;
}

void sg_graph_queue_host_fn(struct graph_host_fn *t, const struct sg_vc *vc,
                            struct launch_place *place)
{
    struct pending_vc *p = calloc(1, sizeof *p);
    if (!p)
        return; /* that run observes nothing: a race may go unreported */
    sg_vc_copy(&p->vc, vc);
    if (place)
        atomic_fetch_add(&place->users, 1);
    p->place = place;
    sg_lock(&sg_graphs_lock);
    if (t->tail)
        t->tail->next = p;
    else
        t->head = p;
    t->tail = p;
    sg_unlock(&sg_graphs_lock);
}

/* A copy of host node parameters with the program's function wrapped; p
 * itself when it cannot be. */
const CUDA_HOST_NODE_PARAMS *sg_graph_wrapped_host_params(const CUDA_HOST_NODE_PARAMS *p, CUDA_HOST_NODE_PARAMS *mine)
{
    if (!p)
        return p;
    *mine = *p;
    return sg_graph_wrap_host_fn(&mine->fn, &mine->userData) == 0 ? mine : p;
}

/* Generic node parameters with a host node's function wrapped. */
CUgraphNodeParams *sg_graph_wrapped_node_params(CUgraphNodeParams *p, CUgraphNodeParams *mine)
{
    if (!p || p->type != CU_GRAPH_NODE_TYPE_HOST)
        return p;
    *mine = *p;
    return sg_graph_wrap_host_fn(&mine->host.fn, &mine->host.userData) == 0 ? mine : p;
}
