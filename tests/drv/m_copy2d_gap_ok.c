/* SPDX-License-Identifier: Apache-2.0 */
/* m_copy2d_gap_ok: 2D copies.  Same layout as m_copy2d_row_race; the host
 * reads a byte in the GAP between rows (same page as the rows, not part of
 * the copy) while the copy is in flight: no race, no report.  Twin:
 * m_copy2d_row_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of m_copy2d_row_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "m_copy2d_row_race.c"
