/* SPDX-License-Identifier: Apache-2.0 */
/* k_reused_handle_ok: the launch of k_reused_handle_race (a kernel at a
 * function handle that named another kernel before a context teardown),
 * its pinned memory read only after cuStreamSynchronize: no race, and no
 * read past the launch's one kernelParams entry. Twin of
 * k_reused_handle_race.
 *
 * SG-EMU-ONLY
 * SG-EXPECT: silent
 */
/* The twin of k_reused_handle_race: the same program, with the lines under
 * #ifdef SG_TWIN there. */
#define SG_TWIN 1
#include "k_reused_handle_race.c"
