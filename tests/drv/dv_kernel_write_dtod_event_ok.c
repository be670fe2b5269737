/* SPDX-License-Identifier: Apache-2.0 */
/* dv_kernel_write_dtod_event_ok: the legacy stream waits for an event
 * recorded on A after the kernel that writes X: the copy of X is ordered
 * after it, no report, Y holds the kernel's words.
 *
 * SG-LEARN
 * SG-OPTIONS: device_races=1:learn_launches=1
 * SG-EXPECT: silent
 */
/* The program of dv_kernel_write_dtod_legacy_race.c with the macro below. */
#define SG_EVENT_WAIT 1
#include "dv_kernel_write_dtod_legacy_race.c"
