/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_update_whole_race: m_graph_exec_update_new_race, updated with cuGraphExecUpdate.  Twin: m_graph_exec_update_whole_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_exec_update_new_race
 */
/* m_graph_exec_update_new_race built with SG_WHOLE. */
#define SG_WHOLE 1
#include "m_graph_exec_update_new_race.c"
