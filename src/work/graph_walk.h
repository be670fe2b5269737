/* SPDX-License-Identifier: Apache-2.0 */
/* A graph read off the driver once, at instantiation: the nodes that
 * matter to the host's happens-before (memcpy nodes with a host side,
 * event record and wait nodes, host nodes), child graphs and the bodies of
 * conditional nodes expanded in place, each item with the items it depends
 * on. Items come in a topological order (each after its dependencies). */
#ifndef SG_WORK_GRAPH_WALK_H
#define SG_WORK_GRAPH_WALK_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

/* GI_MEMSET: a memset node, described as a copy with no source (its dst
 * side, rows and pitch in copy). GI_KERNEL: a kernel node, with the values
 * of its pointer-sized parameters (an executable graph keeps the
 * parameters it was instantiated or last set with). GI_MEMOP: a batch
 * memory operation node's writes (cuStreamWriteValue32/64 captured, or
 * the node made itself). */
enum graph_item_kind { GI_OTHER, GI_COPY, GI_RECORD, GI_WAIT, GI_HOST, GI_MEMSET, GI_KERNEL, GI_MEMOP };

/* One write of a memory operation node: size bytes of value at address. */
struct graph_write {
    CUdeviceptr address;
    uint64_t value;
    unsigned size;
};

struct graph_host_fn;

struct graph_item {
    int kind;           /* enum graph_item_kind */
    CUgraphNode node;   /* the node of the instantiated graph; NULL for joins */
    CUDA_MEMCPY3D copy; /* GI_COPY, GI_MEMSET */
    CUevent event;      /* GI_RECORD, GI_WAIT */
    struct graph_host_fn *host; /* GI_HOST: syncguard's trampoline, or NULL */
    const char *kernel; /* GI_KERNEL: its name (kept for good) */
    CUfunction func;    /* GI_KERNEL: its function (or CUkernel), for what was learnt of it */
    unsigned nptrs;     /* GI_KERNEL: its pointer-sized parameters' values */
    uintptr_t *ptrs;
    unsigned nwrites;   /* GI_MEMOP */
    struct graph_write *writes;
    size_t ndeps;
    size_t *deps; /* indices of earlier items */
    /* A child graph or conditional node's entry item: how many items after
     * it stand for its body (its join included; 0: none were read), and at
     * which depth the node itself was read. */
    size_t span;
    int depth;
};

struct graph_items {
    size_t n, cap;
    struct graph_item *v;
    int interesting; /* any item other than GI_OTHER and GI_KERNEL */
    int kernels;     /* any GI_KERNEL item: they matter only while pinned memory exists */
    /* Whether a kernel item points into pinned memory, as found under the
     * pinned table's generation kernels_gen (0: not asked yet). */
    uint64_t kernels_gen;
    int kernels_hit;
    /* The graph has kernel nodes somewhere, which may set conditions: its
     * conditional nodes' bodies were not read. */
    int blind_conditions;
};

/* What the walk asks the caller (work/graph_exec.c), which knows what the
 * driver cannot tell. */
struct graph_walk_ops {
    /* A host node's trampoline, from its function and data (NULL: the
     * function is not syncguard's). */
    struct graph_host_fn *(*host_of)(const CUDA_HOST_NODE_PARAMS *);
    /* A conditional node's bodies (the driver has no call that gives them
     * back): with all, every one; else those a launch runs, when that is
     * known (the handle assigns its default value at every launch, and no
     * kernel in the graph can change it). How many were written to out
     * (at most max). */
    int (*bodies_of)(CUgraphNode node, int all, CUgraph *out, int max);
};

/* Reads graph g into *out (zeroed by the caller). */
void sg_graph_walk(CUgraph g, struct graph_items *out, const struct graph_walk_ops *ops);
/* Reads g as the body of a child graph node at depth of a graph read with
 * blind_conditions, into *out (zeroed by the caller): the items a walk of
 * the whole graph gives for that body, in the same order, the join left
 * out, their dependencies counted from 0. */
void sg_graph_walk_body(CUgraph g, int depth, int blind_conditions, struct graph_items *out,
                        const struct graph_walk_ops *ops);
void sg_graph_items_free(struct graph_items *items);
/* A kernel item's parameters from CUDA_KERNEL_NODE_PARAMS (func or kern,
 * kernelParams or extra): 0 if they cannot be read. */
int sg_graph_kernel_item_set(struct graph_item *x, const CUDA_KERNEL_NODE_PARAMS *p);
/* A memset item's description (a copy with no source) from its node's
 * parameters. */
void sg_graph_memset_item_set(struct graph_item *x, const CUDA_MEMSET_NODE_PARAMS *p);
/* A memory operation item's writes from its node's parameters: 0 if the
 * node writes nothing (waits only) or they cannot be kept. */
int sg_graph_memop_item_set(struct graph_item *x, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p);

#endif
