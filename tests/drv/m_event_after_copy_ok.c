/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_after_copy_ok: events.  An event recorded on the copy's stream
 * after the copy captures it; cuEventSynchronize on it observes the copy.
 * Twin: m_event_before_copy_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_event_before_copy_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_event_before_copy_race.c"
