/* SPDX-License-Identifier: Apache-2.0 */
/* robust_pitched_gap_ok: the accesses of robust_pitched_row_race (write(),
 * read(), rep movsb, rep stosb), each stopping at the end of a row's gap:
 * they share pages with a pitched copy in flight but none of its bytes.
 * No report; each system call gets its page opened for its duration, each
 * rep string instruction is stepped through the gap; the data are the
 * host's in the gaps and the copied data in the rows.  Twin:
 * robust_pitched_row_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of robust_pitched_row_race: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "robust_pitched_row_race.c"
