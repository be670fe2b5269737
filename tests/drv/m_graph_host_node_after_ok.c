/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_host_node_after_ok: the graph of m_graph_host_node_root_race with its host node (cuGraphAddNode) after the memcpy node: when it runs the copy is complete.  Twin: m_graph_host_node_root_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_host_node_root_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_host_node_root_race.c"
