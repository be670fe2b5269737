/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_event_blocking_ok: legacy default stream.  The copy runs on a
 * BLOCKING created stream A; then a memset and an event record go to the
 * legacy stream (NULL) and the event is synchronized.  Legacy-stream work
 * waits for all earlier work of the blocking streams, so the event covers
 * the copy.  Twin: m_legacy_event_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_legacy_event_nonblocking_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_legacy_event_nonblocking_race.c"
