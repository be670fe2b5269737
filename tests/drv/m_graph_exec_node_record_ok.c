/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_node_record_ok: m_graph_exec_record_set_ok with the record
 * node's event set through the generic cuGraphExecNodeSetParams.  Twin:
 * m_graph_exec_record_set_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#define SG_GENERIC 1
#include "m_graph_exec_record_set_race.c"
