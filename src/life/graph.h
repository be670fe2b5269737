/* SPDX-License-Identifier: Apache-2.0 */
/* Graphs: the host copies of an executable graph, guarded at each launch;
 * the order of its launches; host functions in graphs (life/graph.c). */
#ifndef SG_LIFE_GRAPH_H
#define SG_LIFE_GRAPH_H

#include <cuda.h>

/* The host function and data to put in a graph (captured or added as a
 * node) instead of the program's, so that its start observes the graph's
 * earlier work; 0, or -1 when that cannot be done. */
int sg_graph_wrap_host_fn(CUhostFn *fn, void **data);
/* A graph was instantiated as exec: its host copies are read off it. */
void sg_graph_instantiated(CUgraphExec exec, CUgraph graph);
/* exec is destroyed (or its handle reused). */
void sg_graph_forget(CUgraphExec exec);
/* exec was launched on s: its host copies are guarded, and the launch is
 * ordered after the previous one. */
void sg_graph_launched(CUgraphExec exec, CUstream s, int per_thread);

#endif
