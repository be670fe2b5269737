/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_query_ok: events.  Polling cuEventQuery on an event recorded
 * after the copy until it returns CUDA_SUCCESS observes the copy.  Twin:
 * m_event_query_notready_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_event_query_notready_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_event_query_notready_race.c"
