/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_query_ok: real legacy-stream work (a memset) follows blocking
 * stream A's copy, and an event recorded on blocking stream B follows the
 * memset: synchronizing it covers the copy.  Twin: m_legacy_query_race,
 * where a not-ready query of the legacy stream stands in for the memset
 * and orders nothing.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_legacy_query_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_legacy_query_race.c"
