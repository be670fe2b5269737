/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_node_set_after_ok: m_graph_host_node_after_ok, the host node's function given by cuGraphNodeSetParams.  Twin: m_graph_node_set_root_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_host_node_root_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#define SG_NODE_SET 1
#include "m_graph_host_node_root_race.c"
