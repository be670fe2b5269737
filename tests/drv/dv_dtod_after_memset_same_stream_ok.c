/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_same_stream_ok: the memset and the copy on one
 * stream: stream order, no report.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: silent
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#define SG_COPY_STREAM a
#include "dv_dtod_after_memset_race.c"
