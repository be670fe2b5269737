/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_sync_mode: under mode=sync the race is ordered
 * without a report: Y holds the memset's words.
 *
 * SG-OPTIONS: device_races=1:mode=sync
 * SG-EXPECT: silent
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#include "dv_dtod_after_memset_race.c"
