/* SPDX-License-Identifier: Apache-2.0 */
/* mg_kernel_event_sync_ok: the host synchronizes an event
 * recorded after the kernel before reading the managed words: no report.
 *
 * SG-OPTIONS: managed_races=1
 * SG-EXPECT: silent
 */
/* The program of mg_kernel_race.c with the macros below. */
#define MG_BEFORE_READ MG_EVENT_SYNC
#include "mg_kernel_race.c"
