/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_consumer_ok: a consumer host function between two
 * device-to-host copies into one buffer on one stream (#11: this hung).
 * When it starts the first copy is complete; the second cannot start
 * before it returns: its read is no race, and must not wait.  Twin:
 * m_hostfn_consumer_race.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: faults_ordered_before=1, waits_abandoned=0
 */
/* The twin of m_hostfn_consumer_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_hostfn_consumer_race.c"
