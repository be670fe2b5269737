/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_set_root_race: m_graph_host_node_root_race, the host node's function given by cuGraphExecHostNodeSetParams.  Twin: m_graph_exec_set_after_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_host_node_root_race
 */
/* m_graph_host_node_root_race built with SG_EXEC_SET. */
#define SG_EXEC_SET 1
#include "m_graph_host_node_root_race.c"
