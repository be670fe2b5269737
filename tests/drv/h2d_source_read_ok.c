/* SPDX-License-Identifier: Apache-2.0 */
/* h2d_source_read_ok: the host only READS the pinned source of a
 * cuMemcpyHtoDAsync while the copy is in flight.  Both sides only read
 * those bytes: no race, no report, and the device receives the data.
 * Twin of h2d_source_write_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of h2d_source_write_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "h2d_source_write_race.c"
