/* SPDX-License-Identifier: Apache-2.0 */
/* The order in which a walk adds a graph's nodes (work/graph_walk.c),
 * from their dependencies alone: linear in the nodes and edges. */
#ifndef SG_WORK_GRAPH_ORDER_H
#define SG_WORK_GRAPH_ORDER_H

#include <stddef.h>

/* n nodes, numbered as the driver lists them; node i depends on
 * dep[start[i]] .. dep[start[i + 1] - 1] (listing numbers; n or more for a
 * node not in the graph). Writes into order (n slots) the nodes in the
 * order of passes over the listing that add each node as soon as all its
 * dependencies are in: by pass, then by number, where a root is in pass
 * 0 and another node in the latest pass of its dependencies, one later
 * for a dependency numbered after it. A node that depends on one not in
 * the graph, or on a circle, is never in: how many are, is returned (0
 * when memory runs out). */
size_t sg_graph_order(size_t n, const size_t *start, const size_t *dep, size_t *order);

#endif
