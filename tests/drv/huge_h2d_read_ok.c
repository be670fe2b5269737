/* SPDX-License-Identifier: Apache-2.0 */
/* huge_h2d_read_ok: the host reads the pinned source (huge pages,
 * huge_pinned) of a cuMemcpyHtoDAsync in flight: no race. Twin of
 * huge_h2d_write_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of huge_h2d_write_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "huge_h2d_write_race.c"
