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
 * preload/cuda/graph.c.
 *
 * One file each: host functions in graphs (work/graph_host.c), conditional
 * nodes (graph_cond.c), the table of executable graphs (graph_exec.c),
 * updates of their nodes (graph_update.c), launches (graph_launch.c); what
 * they share is work/graph_int.h. */
#ifndef SG_WORK_GRAPH_H
#define SG_WORK_GRAPH_H

#include <cuda.h>

/* The host function and data to put in a graph (captured or added as a
 * node) instead of the program's, so that its start observes what the
 * node depends on; 0, or -1 when that cannot be done. */
int sg_graph_wrap_host_fn(CUhostFn *fn, void **data);
/* Host node parameters with the program's function wrapped, in *mine; p
 * itself when that cannot be done. */
const CUDA_HOST_NODE_PARAMS *sg_graph_wrapped_host_params(const CUDA_HOST_NODE_PARAMS *p,
                                                          CUDA_HOST_NODE_PARAMS *mine);
/* The same for generic node parameters (only host nodes change). */
CUgraphNodeParams *sg_graph_wrapped_node_params(CUgraphNodeParams *p, CUgraphNodeParams *mine);
/* cuGraphAddNode made node: a conditional node's bodies are remembered. */
void sg_graph_node_added(CUgraphNode node, const CUgraphNodeParams *p);
/* cuGraphConditionalHandleCreate made h. */
void sg_graph_conditional_handle(CUgraphConditionalHandle h, unsigned value, unsigned flags);
/* A graph was instantiated as exec: its items are read off it. */
void sg_graph_instantiated(CUgraphExec exec, CUgraph graph);
/* cuGraphExecUpdate gave exec the parameters of graph. */
void sg_graph_updated(CUgraphExec exec, CUgraph graph);
/* cuGraphExec*SetParams: the next launches copy p / run the (wrapped) host
 * function p / ... at exec's node standing for node. */
void sg_graph_exec_copy_set(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D *p);
void sg_graph_exec_kernel_set(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS *p);
void sg_graph_exec_memop_set(CUgraphExec exec, CUgraphNode node, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p);
void sg_graph_exec_host_set(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS *p);
void sg_graph_exec_memset_set(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS *p);
/* An event record (record) or event wait node records or waits for e. */
void sg_graph_exec_event_set(CUgraphExec exec, CUgraphNode node, CUevent e, int record);
/* The child graph node's body takes the parameters of child's nodes. */
void sg_graph_exec_child_set(CUgraphExec exec, CUgraphNode node, CUgraph child);
/* exec is destroyed (or its handle reused). */
void sg_graph_forget(CUgraphExec exec);
/* exec was launched on s: its items are modelled, and the launch is
 * ordered after the previous one. */
void sg_graph_launched(CUgraphExec exec, CUstream s, int per_thread);

#endif
