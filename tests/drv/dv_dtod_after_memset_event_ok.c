/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_event_ok: the copy's stream B waits for an event
 * recorded on A after the memset: ordered, no report, Y holds the memset's
 * words.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: silent
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#define SG_EVENT_WAIT 1
#include "dv_dtod_after_memset_race.c"
