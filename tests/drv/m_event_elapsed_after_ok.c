/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_elapsed_after_ok: cuEventElapsedTime of an event recorded before the copy and one after it succeeds only once both completed: reading the copy then is no race.  Twin: m_event_elapsed_before_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_event_elapsed_before_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_event_elapsed_before_race.c"
