/* SPDX-License-Identifier: Apache-2.0 */
/* dv_dtod_after_memset_host_sync_ok: the host synchronizes A before the
 * copy is enqueued on B: ordered (the host observed the memset), no
 * report.
 *
 * SG-OPTIONS: device_races=1
 * SG-EXPECT: silent
 */
/* The program of dv_dtod_after_memset_race.c with the macros below. */
#define SG_HOST_SYNC 1
#include "dv_dtod_after_memset_race.c"
