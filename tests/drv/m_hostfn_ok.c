/* SPDX-License-Identifier: Apache-2.0 */
/* m_hostfn_ok: host functions.  A host function enqueued on the copy's
 * stream after the copy starts once the copy is complete; the host thread
 * that sees the flag it sets knows the copy is complete.  Twin:
 * m_hostfn_other_stream_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_hostfn_other_stream_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_hostfn_other_stream_race.c"
