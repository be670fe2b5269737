/* SPDX-License-Identifier: Apache-2.0 */
/* What the files of graphs share (work/graph_host.c, graph_cond.c,
 * graph_exec.c, graph_update.c, graph_launch.c); not for other files. */
#ifndef SG_WORK_GRAPH_INT_H
#define SG_WORK_GRAPH_INT_H

#include <cuda.h>
#include <stdatomic.h>
#include <stdint.h>
#include <uthash.h>

#include "base/lock.h"
#include "model/model.h"
#include "work/graph_walk.h"

/* The lock of all graph state: the host functions' queues and users,
 * conditional nodes, the table of executable graphs (graph_host.c). */
extern sg_lock_t sg_graphs_lock;

/* ---- host functions in graphs (graph_host.c) ---- */

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

/* Drops a user of pl; the last frees it. */
void sg_graph_place_put(struct launch_place *pl);

struct pending_vc;

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

/* The trampoline a host node's parameters name, or NULL when the function
 * is not syncguard's. */
struct graph_host_fn *sg_graph_trampoline_of(const CUDA_HOST_NODE_PARAMS *p);
/* Queues what one launch's host node will show when it runs (vc), and
 * where the launch sits (place, which gains a user; may be NULL). */
void sg_graph_queue_host_fn(struct graph_host_fn *t, const struct sg_vc *vc, struct launch_place *place);

/* ---- conditional nodes (graph_cond.c) ---- */

/* A conditional node's bodies, as struct graph_walk_ops.bodies_of. */
int sg_graph_conditional_bodies(CUgraphNode node, int all, CUgraph *out, int max);

/* ---- executable graphs (graph_exec.c) ---- */

struct graph_exec {
    CUgraphExec exec;
    UT_hash_handle hh;
    struct graph_items items;
    struct sg_vc last; /* what the previous launch stands for */
};

/* The table, by exec; under sg_graphs_lock. */
extern struct graph_exec *sg_graph_execs SG_GUARDED_BY(sg_graphs_lock);
/* What a walk asks of the graph files (trampolines, conditional bodies). */
extern const struct graph_walk_ops sg_graph_walk_ops;

#endif
