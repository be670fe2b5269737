/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy3d_gap_ok: 3D copies.  Same box as m_copy3d_race; the host reads a
 * row's tail gap and a gap row of the first slice while the copy is in
 * flight: not part of the copy, no report.  Twin: m_copy3d_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_copy3d_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_copy3d_race.c"
