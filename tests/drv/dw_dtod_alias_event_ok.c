/* SPDX-License-Identifier: Apache-2.0 */
/* dw_dtod_alias_event_ok: the copy of dw_dtod_alias_race, read after
 * cuEventSynchronize of an event recorded after it: no race.  Twin:
 * dw_dtod_alias_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of dw_dtod_alias_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_dtod_alias_race.c"
