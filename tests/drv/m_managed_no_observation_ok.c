/* SPDX-License-Identifier: Apache-2.0 */
/* m_managed_no_observation_ok: the copies of m_managed_no_observation_race (pinned, then managed, on one stream), read after cuStreamSynchronize: no race.  Twin: m_managed_no_observation_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_managed_no_observation_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_managed_no_observation_race.c"
