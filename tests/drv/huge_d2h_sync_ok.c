/* SPDX-License-Identifier: Apache-2.0 */
/* huge_d2h_sync_ok: an async copy into a pinned allocation on huge pages
 * (huge_pinned), read only after cuStreamSynchronize: no race, and the
 * data are the copy's. Twin of huge_d2h_read_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of huge_d2h_read_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "huge_d2h_read_race.c"
