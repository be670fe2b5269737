/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_event_wait_ok: a graph whose event wait node waits for the event recorded after a held copy on another stream: synchronizing the launch stream shows that copy complete.  Twin: m_graph_event_wait_missing_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_graph_event_wait_missing_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_graph_event_wait_missing_race.c"
