/* SPDX-License-Identifier: Apache-2.0 */
/* m_failed_copy_ok: a synchronous cuMemcpyDtoH on the legacy stream that
 * succeeds waits for blocking stream A's copy, and an event recorded after
 * it on blocking stream B follows it: synchronizing the event covers the
 * copy.  Twin: m_failed_copy_race, where the legacy copy fails and orders
 * nothing.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_failed_copy_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_failed_copy_race.c"
