/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_record_set_ok: the launch of m_graph_exec_record_set_race
 * records E2, the event its record node was set to after instantiation:
 * synchronizing E2 observes the copy before the launch.  Twin:
 * m_graph_exec_record_set_race.
 *
 * SG-EXPECT: silent
 */
#define SG_TWIN 1
#include "m_graph_exec_record_set_race.c"
