/* SPDX-License-Identifier: Apache-2.0 */
/* m_capture_launch_sync_ok: stream capture.  The captured graph is launched
 * and the launch stream synchronized before the read: no race.  Twin:
 * m_capture_launch_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_capture_launch_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_capture_launch_race.c"
