/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_report_only: with device_fix=0 the race is reported
 * and left as it is: the copy runs before the held memset, and Y holds X's
 * old words, as it would without syncguard.
 *
 * SG-OPTIONS: device_races=1:device_fix=0
 * SG-EXPECT: device-read-after-write
 * SG-GREP: syncguard did not order them
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#define SG_WANT SGT_OLD
#define SG_REPORT_ONLY 1
#include "dv_dtod_after_memset_race.c"
