/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_update_whole_ok: m_graph_exec_update_old_ok, updated with cuGraphExecUpdate.  Twin: m_graph_exec_update_whole_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_exec_update_new_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#define SG_WHOLE 1
#include "m_graph_exec_update_new_race.c"
