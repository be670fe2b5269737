/* SPDX-License-Identifier: Apache-2.0 */
/* m_free_after_sync_ok: freeing pinned memory after the copy into it was
 * observed complete: nothing to report.  Twin: m_free_in_flight_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_free_in_flight_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_free_in_flight_race.c"
