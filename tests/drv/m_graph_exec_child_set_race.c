/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_child_set_race: m_graph_exec_memset_set_race with the
 * memset in a child graph: the child graph node is made from a graph whose
 * memset writes device memory; after instantiation
 * cuGraphExecChildGraphNodeSetParams gives the executable graph's child
 * the parameters of a graph of the same shape whose memset writes pinned
 * host memory.  The next launch writes the pinned words, and the host
 * reads them before observing it: reported.  Twins:
 * m_graph_exec_child_set_ok and m_graph_exec_node_child_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Memset enqueued on .* by cuGraphLaunch .memset node.
 */
#define SG_CHILD 1
#include "m_graph_exec_memset_set_race.c"
