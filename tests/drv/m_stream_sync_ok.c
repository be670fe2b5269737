/* SPDX-License-Identifier: Apache-2.0 */
/* m_stream_sync_ok: stream order.  cuStreamSynchronize of the copy's own
 * stream returns once everything enqueued on it, the copy included, is
 * complete:  the read afterwards is no race.  Twin:
 * m_stream_sync_other_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_stream_sync_other_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_stream_sync_other_race.c"
