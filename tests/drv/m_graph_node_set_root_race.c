/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_node_set_root_race: m_graph_host_node_root_race, the host node's function given by cuGraphNodeSetParams.  Twin: m_graph_node_set_after_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_host_node_root_race
 */
/* m_graph_host_node_root_race built with SG_NODE_SET. */
#define SG_NODE_SET 1
#include "m_graph_host_node_root_race.c"
