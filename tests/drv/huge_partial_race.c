/* SPDX-License-Identifier: Apache-2.0 */
/* huge_partial_race: a copy into part of a pinned allocation on huge pages
 * (huge_pinned), and a byte of it in a huge page the copy covers whole,
 * read before the copy is known done: reported, and the read sees the
 * copied byte. Twin of huge_partial_neighbour.
 *
 * SG-EXPECT: early-host-read
 */
/* The twin of huge_partial_neighbour: the same program, with the lines
 * under #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "huge_partial_neighbour.c"
