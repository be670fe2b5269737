/* SPDX-License-Identifier: Apache-2.0 */
/* dw_batch_flag_poll_ok: the copy and batch of dw_batch_write_race; the
 * host spins on the word until it holds the batch's value, which observes
 * the copy enqueued before it: reading the copy's destination then is no
 * race.  Twin: dw_batch_write_race.
 *
 * SG-EXPECT: silent
 */
/* The twin of dw_batch_write_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "dw_batch_write_race.c"
