/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_node_child_ok: m_graph_exec_child_set_ok with the child
 * graph's update made through the generic cuGraphExecNodeSetParams.  Twin:
 * m_graph_exec_child_set_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_CHILD 1
#define SG_GENERIC 1
#include "m_graph_exec_memset_set_race.c"
