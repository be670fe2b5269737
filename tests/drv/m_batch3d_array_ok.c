/* SPDX-License-Identifier: Apache-2.0 */
/* m_batch3d_array_ok: the array-to-pinned 3D batch copy of
 * m_batch3d_array_race, read after cuStreamSynchronize: no race.  Twin:
 * m_batch3d_array_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_batch3d_array_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_batch3d_array_race.c"
