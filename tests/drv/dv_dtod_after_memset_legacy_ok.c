/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_legacy_ok: the memset on a blocking stream A, the
 * copy on the legacy default stream, which waits for it: no report.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: silent
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#define SG_A_FLAGS CU_STREAM_DEFAULT
#define SG_COPY_STREAM NULL
#include "dv_dtod_after_memset_race.c"
