/* SPDX-License-Identifier: Apache-2.0 */
/* m_primary_reset_same_device_ok: the copy of m_primary_reset_other_device_race, in device 1's primary context; the host resets that context, which waits for its work: no race.  Twin: m_primary_reset_other_device_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_primary_reset_other_device_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_primary_reset_other_device_race.c"
