/* SPDX-License-Identifier: Apache-2.0 */
/* m_devices_sync_ok: several devices.  The copy runs on a stream of device
 * 1's primary context and the host synchronizes that context: no race.
 * Needs two devices (the emulator makes two; skipped on a one-GPU
 * machine).  Twin: m_devices_sync_other_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_devices_sync_other_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_devices_sync_other_race.c"
