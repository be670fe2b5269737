/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_two_copies_one_page: two small async copies fill the two halves of
 * one pinned page, the first on stream A, the second on stream B (held).
 * After cuStreamSynchronize(A) the first half is safe to read although the
 * page is still guarded for B's copy: the reads touch none of B's bytes, so
 * they are no race (syncguard must step over them silently) and see A's
 * data.  Twin: d2h_two_copies_one_page_race reads the second half.
 *
 * Only a few words are read while B's copy is pending.
 *
 * SG-EXPECT: silent
 */
/* The twin of d2h_two_copies_one_page_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "d2h_two_copies_one_page_race.c"
