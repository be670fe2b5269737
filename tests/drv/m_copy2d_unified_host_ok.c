/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy2d_unified_host_ok: the synchronous cuMemcpy2D of m_copy2d_unified_d2d_race with a unified destination that is pinned host memory: it returns once complete, and so does the legacy stream's earlier copy: no race.  Twin: m_copy2d_unified_d2d_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_copy2d_unified_d2d_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_copy2d_unified_d2d_race.c"
