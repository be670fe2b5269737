/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_event_record_after_ok: the graph of m_graph_event_record_root_race with its event record node after the memcpy node: synchronizing the event shows the copy complete.  Twin: m_graph_event_record_root_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_event_record_root_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_event_record_root_race.c"
