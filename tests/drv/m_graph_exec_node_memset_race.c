/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_node_memset_race: m_graph_exec_memset_set_race with the
 * memset node's update made through the generic cuGraphExecNodeSetParams.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Memset enqueued on .* by cuGraphLaunch .memset node.
 */
#define SG_GENERIC 1
#include "m_graph_exec_memset_set_race.c"
