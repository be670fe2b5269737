/* SPDX-License-Identifier: Apache-2.0 */
/* The graphs a program builds, instantiates, updates and launches. A
 * graph's nodes run when it is launched, not when it is built, so the
 * graph is read off the driver once, at instantiation (work/graph_walk.c),
 * and each launch is modelled node by node, in a topological order, on the
 * launch stream:
 *   - a memcpy node with a pinned host side is guarded like a copy
 *     enqueued on the launch stream;
 *   - an event record node records its event with what the nodes it
 *     depends on stand for (and the work before the launch);
 *   - an event wait node adds the event's work to what the nodes after it
 *     stand for, and the launch stream waits for it after the launch;
 *   - a host node, when it runs, shows the host what the nodes it depends
 *     on stand for.
 * What a node stands for is a prefix of the launch stream up to its last
 * ancestor copy: a copy ordered before that one without being an ancestor
 * is covered too (a race there can go unreported, never a false one).
 * Changes to an executable graph (cuGraphExec*SetParams, cuGraphExecUpdate)
 * apply from the next launch. (Copies recorded by a stream capture are
 * never guarded at capture: they had not run.) The shims are
 * preload/cuda/graph.c. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "base/lock.h"
#include "base/log.h"
#include "base/options.h"
#include "driver/driver.h"
#include "work/graph.h"
#include "work/hostfn.h"
#include "work/kernel.h"
#include "work/graph_walk.h"
#include "life/life.h"
#include "life/site.h"
#include "model/model.h"
#include "model/sync.h"

static sg_lock_t graphs_lock = SG_LOCK_INIT;

/* ---- host functions in graphs ---- */

/* Where one launch sits in its stream: its own operation, after its
 * copies, which the model places after the real launch returned (the host
 * nodes may run before that: seq 0, not placed yet). A copy enqueued after
 * the launch comes after its host nodes. Shared by the launch's queued
 * entries; the last user frees it. */
struct launch_place {
    atomic_int users;
    uint32_t stream;
    _Atomic uint64_t seq;
};

static void place_put(struct launch_place *pl)
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

/* A host function in a graph (a cuLaunchHostFunc captured, or a host node
 * however made): syncguard's trampoline runs it. Each launch queues what
 * the node's ancestors stand for; the run takes the oldest (launches of
 * one executable graph run one after the other). Used by several
 * executable graphs, it takes what all queued launches stand for. */
struct graph_host_fn {
    CUhostFn fn;
    void *data;
    int users; /* executable graphs holding it */
    struct pending_vc *head, *tail;
};

static void CUDA_CB run_graph_host_fn(void *arg)
{
    struct graph_host_fn *t = arg;
    struct sg_vc covered = { 0 };
    struct launch_place *place = NULL;
    sg_lock(&graphs_lock);
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
    sg_unlock(&graphs_lock);
    if (p)
        sg_vc_free(&p->vc), free(p);
    struct sg_sync_site site = SG_SYNC_SITE("a graph host node", SG_SYNC_HOST_FN, t);
    sg_observe_if(covered.n > 0, &covered, &site);
    uint64_t seq = place ? atomic_load(&place->seq) : 0;
    sg_host_fn_node_begin(seq ? place->stream : 0, seq);
    t->fn(t->data);
    sg_host_fn_node_end();
    place_put(place);
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

static struct graph_host_fn *trampoline_of(const CUDA_HOST_NODE_PARAMS *p)
{
    return p->fn == run_graph_host_fn ? p->userData : NULL;
}

static void queue_for_host_fn(struct graph_host_fn *t, const struct sg_vc *vc,
                              struct launch_place *place)
{
    struct pending_vc *p = calloc(1, sizeof *p);
    if (!p)
        return; /* that run observes nothing: a race may go unreported */
    sg_vc_copy(&p->vc, vc);
    if (place)
        atomic_fetch_add(&place->users, 1);
    p->place = place;
    sg_lock(&graphs_lock);
    if (t->tail)
        t->tail->next = p;
    else
        t->head = p;
    t->tail = p;
    sg_unlock(&graphs_lock);
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

/* ---- conditional nodes ---- */

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
        sg_lock(&graphs_lock);
        struct cond_handle *old;
        HASH_FIND(hh, cond_handles, &c->handle, sizeof c->handle, old);
        if (old) {
            HASH_DEL(cond_handles, old);
            free(old);
        }
        HASH_ADD(hh, cond_handles, handle, sizeof c->handle, c);
        sg_unlock(&graphs_lock);
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
    sg_lock(&graphs_lock);
    struct cond_node *old;
    HASH_FIND_PTR(cond_nodes, &node, old);
    if (old) {
        HASH_DEL(cond_nodes, old);
        free(old);
    }
    HASH_ADD_PTR(cond_nodes, node, c);
    sg_unlock(&graphs_lock);
}

static int conditional_bodies(CUgraphNode node, int all, CUgraph *out, int max)
{
    int n = 0;
    sg_lock(&graphs_lock);
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
    sg_unlock(&graphs_lock);
    return n;
}

/* The generic node API: conditional nodes' bodies are remembered (the
 * driver has no call that gives them back). */
void sg_graph_node_added(CUgraphNode node, const CUgraphNodeParams *p)
{
    if (p && p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL && p->conditional.phGraph_out)
        conditional_added(node, &p->conditional);
}

/* ---- executable graphs ---- */

struct graph_exec {
    CUgraphExec exec;
    UT_hash_handle hh;
    struct graph_items items;
    struct sg_vc last; /* what the previous launch stands for */
};

static struct graph_exec *execs;

static void hold_host_fns(struct graph_items *it, int delta)
{
    for (size_t i = 0; i < it->n; i++)
        if (it->v[i].kind == GI_HOST && it->v[i].host)
            it->v[i].host->users += delta;
}

void sg_graph_forget(CUgraphExec exec)
{
    struct graph_exec *g;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    if (g) {
        HASH_DEL(execs, g);
        hold_host_fns(&g->items, -1);
    }
    sg_unlock(&graphs_lock);
    if (g) {
        sg_graph_items_free(&g->items);
        sg_vc_free(&g->last);
        free(g);
    }
}

static const struct graph_walk_ops walk_ops = { trampoline_of, conditional_bodies };

/* Reads the graph the executable graph was made from (or updated with). */
static void read_graph(CUgraphExec exec, CUgraph graph)
{
    struct graph_exec *g = calloc(1, sizeof *g);
    if (!g)
        return;
    g->exec = exec;
    sg_graph_walk(graph, &g->items, &walk_ops);
    struct graph_exec *old;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, old);
    if (old) {
        /* an update (launches stay ordered), or a handle the driver reused */
        HASH_DEL(execs, old);
        hold_host_fns(&old->items, -1);
        sg_vc_copy(&g->last, &old->last);
    }
    hold_host_fns(&g->items, 1);
    HASH_ADD_PTR(execs, exec, g);
    sg_unlock(&graphs_lock);
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

/* ---- updates: the next launch runs the new parameters ---- */

/* Calls fn on the item of exec standing for node, under the lock; fn may
 * mark the items (a node that mattered to nothing may matter now). */
typedef void update_fn(struct graph_items *items, struct graph_item *it, const void *arg);

static void update_item(CUgraphExec exec, CUgraphNode node, update_fn *fn, const void *arg)
{
    struct graph_exec *g;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    for (size_t i = 0; g && i < g->items.n; i++)
        if (g->items.v[i].node == node)
            fn(&g->items, &g->items.v[i], arg);
    sg_unlock(&graphs_lock);
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
    update_item(exec, node, set_host, trampoline_of(p));
}

/* ---- a child graph node given another graph's parameters ---- */

/* The entry item of the child graph node `node` among items, or -1.
 * graphs_lock held. */
static long child_entry(const struct graph_items *items, CUgraphNode node)
{
    for (size_t i = 0; i < items->n; i++)
        if (items->v[i].node == node && items->v[i].kind == GI_OTHER)
            return (long)i;
    return -1;
}

/* Item `to` takes the parameters of `from`, an item of a fresh walk that
 * keeps nothing of it; its node and dependencies stay. graphs_lock held. */
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
 * graphs_lock held. */
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
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    long at = g ? child_entry(&g->items, node) : -1;
    if (at >= 0)
        depth = g->items.v[at].depth, blind = g->items.blind_conditions;
    sg_unlock(&graphs_lock);
    if (at < 0)
        return;
    struct graph_items body = { 0 };
    sg_graph_walk_body(child, depth, blind, &body, &walk_ops);
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    at = g ? child_entry(&g->items, node) : -1;
    if (at >= 0)
        taken = take_body(&g->items, at, &body);
    sg_unlock(&graphs_lock);
    sg_graph_items_free(&body);
    static int said;
    if (at >= 0 && !taken)
        sg_log_warn_once(&said, "cuGraphExecChildGraphNodeSetParams: the new child graph's nodes do "
                                "not match the old one's as syncguard read them; launches of the "
                                "executable graph are modelled with the old child graph");
}

/* ---- launch ---- */

/* What the launch stream's work so far stands for. */
static void stream_now(CUstream s, int per_thread, struct sg_vc *out)
{
    sg_lock(&sg_model_lock);
    sg_stream_snapshot(sg_stream_get(s, per_thread), out);
    sg_unlock(&sg_model_lock);
}

/* Guards what a copy, memset, kernel or memory operation item writes or
 * reads in host memory, as the launch's call (a memory operation's word
 * as a flag, as on a stream: memop.c). */
static void guard_item(struct copy_call *call, const struct graph_item *x)
{
    call->kernel = NULL;
    call->origin = SG_ORIGIN_COPY;
    switch (x->kind) {
    case GI_KERNEL:
        call->api = "cuGraphLaunch (kernel node)";
        if (sg_opt.kernel_args)
            sg_kernel_guard(call, x->kernel, x->ptrs, x->nptrs);
        break;
    case GI_MEMOP:
        call->api = "cuGraphLaunch (memory operation node)";
        call->origin = SG_ORIGIN_MEMOP;
        for (unsigned i = 0; i < x->nwrites; i++) {
            uintptr_t host = sg_copy_mapped_side(x->writes[i].address);
            call->value = x->writes[i].value;
            if (host)
                sg_copy_call_guard(call, host, sg_shape_linear(x->writes[i].size), SG_GUARD_FLAG);
        }
        break;
    case GI_MEMSET:
        call->api = "cuGraphLaunch (memset node)";
        call->origin = SG_ORIGIN_MEMSET;
        sg_copy_call_guard_3d(call, &x->copy);
        break;
    default:
        call->api = "cuGraphLaunch (memcpy node)";
        sg_copy_call_guard_3d(call, &x->copy);
        break;
    }
}

/* Models one launch of g's items (a private copy, taken under the lock). */
static void launch_items(const struct graph_items *it, const struct sg_vc *before, CUstream s, int per_thread,
                         struct sg_vc *waited, struct launch_place *place)
{
    struct sg_vc *out = calloc(it->n ? it->n : 1, sizeof *out);
    if (!out)
        return;
    struct copy_call call;
    sg_copy_call_init(&call, "cuGraphLaunch (memcpy node)", s, per_thread);
    for (size_t i = 0; i < it->n; i++) {
        const struct graph_item *x = &it->v[i];
        struct sg_vc in = { 0 };
        sg_vc_copy(&in, before);
        for (size_t k = 0; k < x->ndeps; k++)
            sg_vc_join(&in, &out[x->deps[k]]);
        if (x->kind == GI_COPY || x->kind == GI_MEMSET || x->kind == GI_KERNEL || x->kind == GI_MEMOP) {
            guard_item(&call, x);
            stream_now(s, per_thread, &out[i]); /* up to this copy */
            sg_vc_join(&out[i], &in);
        } else {
            sg_vc_copy(&out[i], &in);
        }
        if (x->kind == GI_RECORD) {
            sg_lock(&sg_model_lock);
            sg_event_recorded(x->event, &in);
            sg_unlock(&sg_model_lock);
        } else if (x->kind == GI_WAIT) {
            struct sg_vc e = { 0 };
            sg_snapshot_event(x->event, &e);
            sg_vc_join(&out[i], &e);
            sg_vc_join(waited, &e);
            sg_vc_free(&e);
        } else if (x->kind == GI_HOST && x->host) {
            queue_for_host_fn(x->host, &in, place);
        }
        sg_vc_free(&in);
    }
    for (size_t i = 0; i < it->n; i++)
        sg_vc_free(&out[i]);
    free(out);
}

static int copy_items(struct graph_items *dst, const struct graph_items *src)
{
    *dst = (struct graph_items){ 0 };
    if (!src->n)
        return 0;
    dst->v = malloc(src->n * sizeof *dst->v);
    if (!dst->v)
        return -1;
    for (size_t i = 0; i < src->n; i++) {
        dst->v[i] = src->v[i];
        dst->v[i].deps = NULL, dst->v[i].ndeps = 0;
        dst->v[i].ptrs = NULL, dst->v[i].nptrs = 0;
        dst->v[i].writes = NULL, dst->v[i].nwrites = 0;
        if (src->v[i].nwrites &&
            (dst->v[i].writes = malloc(src->v[i].nwrites * sizeof(struct graph_write))) != NULL) {
            memcpy(dst->v[i].writes, src->v[i].writes, src->v[i].nwrites * sizeof(struct graph_write));
            dst->v[i].nwrites = src->v[i].nwrites;
        }
        if (src->v[i].nptrs && (dst->v[i].ptrs = malloc(src->v[i].nptrs * sizeof(uintptr_t))) != NULL) {
            memcpy(dst->v[i].ptrs, src->v[i].ptrs, src->v[i].nptrs * sizeof(uintptr_t));
            dst->v[i].nptrs = src->v[i].nptrs;
        }
        if (src->v[i].ndeps && (dst->v[i].deps = malloc(src->v[i].ndeps * sizeof(size_t))) != NULL) {
            memcpy(dst->v[i].deps, src->v[i].deps, src->v[i].ndeps * sizeof(size_t));
            dst->v[i].ndeps = src->v[i].ndeps;
        }
        dst->n++;
    }
    return 0;
}

/* Whether a kernel item may write pinned memory now: pinned memory is
 * allocated and freed between launches, so this is asked again whenever
 * the pinned table has changed. */
static int kernel_may_write_pinned(const struct graph_item *x)
{
    if (sg_opt.kernel_all_mapped)
        return 1;
    uintptr_t base;
    size_t size;
    for (unsigned j = 0; j < x->nptrs; j++)
        if (sg_pinned_range_any(x->ptrs[j], &base, &size))
            return 1;
    return 0;
}

/* Whether a launch of these items needs modelling item by item: host
 * copies, events or host nodes; or kernels given pinned memory (a graph
 * of kernels on device memory alone, the common case, is looked up once
 * per change of the pinned table, not at every launch). graphs_lock held. */
static int items_matter(struct graph_items *it)
{
    if (it->interesting)
        return 1;
    if (!it->kernels || !sg_opt.kernel_args || !sg_pinned_any())
        return 0;
    uint64_t gen = sg_pinned_generation();
    if (it->kernels_gen == gen)
        return it->kernels_hit;
    it->kernels_hit = 0;
    for (size_t i = 0; i < it->n && !it->kernels_hit; i++)
        if (it->v[i].kind == GI_KERNEL && kernel_may_write_pinned(&it->v[i]))
            it->kernels_hit = 1;
    it->kernels_gen = gen;
    return it->kernels_hit;
}

/* The launch is work on s after the previous launch of the same graph
 * ("each launch is ordered behind ... any previous launches of
 * hGraphExec") and, through its event wait nodes, after those events. */
static void launched(CUgraphExec exec, CUstream s, int per_thread)
{
    struct graph_exec *g;
    struct graph_items items = { 0 };
    struct sg_vc before = { 0 }, after = { 0 }, then = { 0 };
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    int interesting = g && items_matter(&g->items);
    sg_unlock(&graphs_lock);
    /* A graph without host copies, events or host nodes orders nothing
     * that matters while no copy is guarded; a launch into a capture runs
     * nothing now (it becomes a child graph node). */
    if ((!interesting && !sg_observe_needed()) || sg_stream_is_capturing(s, per_thread))
        return;
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    if (g) {
        sg_vc_copy(&after, &g->last);
        if (items_matter(&g->items))
            copy_items(&items, &g->items);
    }
    sg_unlock(&graphs_lock);
    struct launch_place *place = items.n ? calloc(1, sizeof *place) : NULL;
    if (place)
        atomic_init(&place->users, 1);
    if (items.n) {
        stream_now(s, per_thread, &before);
        sg_vc_join(&before, &after);
        launch_items(&items, &before, s, per_thread, &after, place);
        sg_graph_items_free(&items);
    }
    sg_note_ordered_work(s, per_thread, &after, &then);
    if (place) {
        struct sg_stream_info info;
        struct sg_vc now = { 0 };
        sg_snapshot_stream(s, per_thread, &now, &info);
        sg_vc_free(&now);
        place->stream = info.idx;
        atomic_store(&place->seq, sg_vc_get(&then, info.idx));
        place_put(place);
    }
    sg_lock(&graphs_lock);
    HASH_FIND_PTR(execs, &exec, g);
    if (g)
        sg_vc_join(&g->last, &then);
    sg_unlock(&graphs_lock);
    sg_vc_free(&before), sg_vc_free(&after), sg_vc_free(&then);
}

void sg_graph_launched(CUgraphExec exec, CUstream s, int per_thread)
{
    if (execs)
        launched(exec, s, per_thread);
}
