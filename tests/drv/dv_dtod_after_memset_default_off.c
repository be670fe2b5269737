/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_default_off: without device_races=1 (the default
 * until it is measured on a GPU) syncguard leaves device memory alone: the
 * race goes unreported and unordered, and Y holds X's old words, as it
 * would without syncguard.
 *
 * SG-EXPECT: silent
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#define SG_WANT SGT_OLD
#define SG_REPORT_ONLY 1
#include "dv_dtod_after_memset_race.c"
