/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_update_old_ok: the launch after cuGraphExecMemcpyNodeSetParams leaves the old destination alone: reading it is no race.  Twin: m_graph_exec_update_new_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_exec_update_new_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_exec_update_new_race.c"
